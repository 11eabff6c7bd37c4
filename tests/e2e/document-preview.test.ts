import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildBlockPdf } from '../../services/api/test/support/document-fixtures';
import {
  createAccount,
  expectPage,
  expectVisible,
  field,
  logInThroughApi,
  uniqueEmail,
} from '../support/applicant';
import type { A11yFindings } from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import type { RunningServer } from '../support/server';

// Issue 27: after a conversion the upload widget shows what the admissions office will read —
// the converted PDF's page count and a picture of its first page — on a desktop and a phone.
const DOC = 'personal_statement_doc';
const LABEL = 'Tell us about a challenge you have faced and what you learned from it.';
const FILE_NAME = 'transcript-scan.pdf';
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 740 },
] as const;
// Conversions run on two cores shared with other suites: generous waits, never sleeps.
const WAIT_MS = 60_000;

let server: RunningServer;
let page: Page;
let a11y: A11yFindings;

useBrowserSuite({ name: 'document-preview', waitMs: WAIT_MS }, (suite) => {
  ({ server, page, a11y } = suite);
});

const upload = (): Locator => field(page, DOC);

describe('the converted document’s preview in the upload widget', () => {
  it.each(VIEWPORTS)('shows the page count and the first page on a $name', async (viewport) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = uniqueEmail(`preview-${viewport.name}`);
    await createAccount(page, server, email);
    await logInThroughApi(page, email);
    await page.goto('/education');
    await expectPage(page, '/education', 'Your Academics');

    await upload()
      .getByLabel(LABEL)
      .setInputFiles({
        name: FILE_NAME,
        mimeType: 'application/pdf',
        buffer: Buffer.from(await buildBlockPdf(3)),
      });

    await expectVisible(upload().getByText('3 pages', { exact: true }));
    const thumbnail = upload().getByRole('img', {
      name: `First page of ${FILE_NAME} as the admissions office will see it`,
      exact: true,
    });
    await expectVisible(thumbnail);
    // The picture itself arrived and decoded (a broken image has no natural size).
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(200);

    // On a phone the picture, the name and the delete button stay within the screen.
    const box = (await upload().boundingBox())!;
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
    const picture = (await thumbnail.boundingBox())!;
    expect(picture.x + picture.width).toBeLessThanOrEqual(box.x + box.width + 1);
    const remove = upload().getByRole('button', { name: 'Delete' });
    const button = (await remove.boundingBox())!;
    expect(button.x + button.width).toBeLessThanOrEqual(viewport.width);

    await a11y.check(`/education (file preview, ${viewport.name})`);
    await a11y.expectNone(`document-preview-${viewport.name}`);
  });
});
