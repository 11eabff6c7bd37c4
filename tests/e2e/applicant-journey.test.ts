import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COMPLETE_ANSWERS } from '../../packages/form/test/fixtures/complete-answers';
import {
  createAccount,
  expectPage,
  logInThroughApi,
  saveThroughApi,
  submitThroughApi,
  uniqueEmail,
  without,
} from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import type { RunningServer } from '../support/server';

// Issue 17, second pass: what a new applicant still tripped on when using the running build on a
// 375 px phone and a 1280 px desktop.

const DOC_KEYS = Object.keys(COMPLETE_ANSWERS).filter((key) => key.endsWith('_doc'));
const COMPLETE = {
  ...without(COMPLETE_ANSWERS, DOC_KEYS),
  special_programs: 'NONE',
  special_programs_desc: 'I am not applying to a special program',
};

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 740 },
] as const;

let server: RunningServer;
let page: Page;

useBrowserSuite({ name: 'applicant-journey', waitMs: 60_000 }, (suite) => {
  ({ server, page } = suite);
});

describe.each(VIEWPORTS)('on a $name ($width px)', (viewport) => {
  it('opens the next step at its top after Save and Continue', async () => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = uniqueEmail(`scroll-${viewport.name}`);
    await createAccount(page, server, email);
    await logInThroughApi(page, email);
    await page.goto('/about');
    await expectPage(page, '/about', 'About You');
    // The button is at the end of a long page: the applicant has scrolled down to reach it.
    const save = page.getByRole('button', { name: 'Save and Continue' });
    await save.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await save.click();
    await expectPage(page, '/education', 'Your Academics');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    const title = await page
      .getByRole('heading', { level: 1, name: 'Your Academics' })
      .boundingBox();
    expect(title && title.y + title.height).toBeLessThanOrEqual(viewport.height);
  });

  it('shows the whole PDF download label on /completion, inside the page', async () => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = uniqueEmail(`pdf-label-${viewport.name}`);
    await createAccount(page, server, email);
    await logInThroughApi(page, email);
    await saveThroughApi(page, COMPLETE);
    await submitThroughApi(page);
    await page.goto('/completion');
    await expectPage(page, '/completion', 'Application submitted');
    // Clipped on a phone it read "Download a PDF copy of your app", both while the copy was
    // being made and once the link was ready.
    const label = page.getByTestId('pdf-download').locator('.mantine-Button-label');
    await label.waitFor();
    const fits = () =>
      label.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return (
          element.scrollWidth <= element.clientWidth &&
          box.right <= document.documentElement.clientWidth
        );
      });
    expect(await fits()).toBe(true);
    await page.getByRole('link', { name: 'Download a PDF copy of your application' }).waitFor();
    expect(await fits()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
  });
});
