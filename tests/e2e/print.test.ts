import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COMPLETE_ANSWERS } from '../../packages/form/test/fixtures/complete-answers';
import {
  A11yFindings,
  createAccount,
  expectPage,
  expectVisible,
  field,
  logInThroughApi,
  openPage,
  saveThroughApi,
  uniqueEmail,
  without,
} from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import { countPdfPages, extractPdfText, isPdf, normaliseText } from '../support/pdf';
import { ARTIFACTS_DIR, type RunningServer } from '../support/server';
import { createPrefillLink, mintServiceToken } from '../support/staff';

// Issue 7 in the browser: the staff print view opened from a CLI-minted token, the applicant's
// own PDF downloaded from the completion page, and a prefill link for an anonymous visitor.
const TEXT = {
  submitted: 'Your application was successfully submitted.',
  download: 'Download a PDF copy of your application',
  preparing: 'Preparing the PDF copy of your application…',
  reopenTitle: 'Open the link again',
  printErrorTitle: 'This application cannot be shown',
  anonymous: 'Welcome to your application',
};

// Uploads have their own suites; the statements of a complete application use no document.
const DOC_KEYS = Object.keys(COMPLETE_ANSWERS).filter((key) => key.endsWith('_doc'));
const NO_UPLOADS = {
  special_programs: 'NONE',
  special_programs_desc: 'I am not applying to a special program',
};
const COMPLETE = { ...without(COMPLETE_ANSWERS, DOC_KEYS), ...NO_UPLOADS };

// PDFs are made by a job on two cores shared with the server: generous waits, never sleeps.
const WAIT_MS = 60_000;

let server: RunningServer;
let browser: Browser;
let page: Page;
let a11y: A11yFindings;
let pageErrors: string[];

useBrowserSuite({ name: 'print', waitMs: WAIT_MS }, (suite) => {
  ({ server, browser, page, a11y, pageErrors } = suite);
});

/** An applicant with these answers saved, logged in on `page`'s cookie jar. */
async function seedApplicant(name: string, answers: Record<string, string>): Promise<string> {
  const email = uniqueEmail(name);
  await createAccount(page, server, email);
  await logInThroughApi(page, email);
  await saveThroughApi(page, answers);
  return email;
}

/** A browser with no applicant cookies: the staff member's. */
async function openStaffPage(): Promise<{ staff: BrowserContext; staffPage: Page }> {
  const opened = await openPage(browser, server, WAIT_MS);
  opened.page.on('pageerror', (error) => pageErrors.push(error.message));
  return { staff: opened.context, staffPage: opened.page };
}

describe('the staff print view', () => {
  it('opens from a CLI-minted link: the answers as plain text, no frame, token gone', async () => {
    const email = await seedApplicant('print', {
      ...COMPLETE,
      // Hidden while conviction is No: saved in the raw answers, shown nowhere.
      conviction_comment: 'A hidden comment nobody should read',
    });
    const link = await mintServiceToken(server, email);
    expect(link.url.startsWith(`${server.baseUrl}/print?service_token=`)).toBe(true);

    const { staff, staffPage } = await openStaffPage();
    try {
      const staffA11y = new A11yFindings(staffPage);
      await staffPage.goto(link.url);
      await expectVisible(staffPage.getByText('12 Elm Street', { exact: true }));
      // The token left the address bar (and the history entry) once used.
      await staffPage.waitForURL((url) => url.pathname === '/print' && url.search === '');
      expect(staffPage.url()).not.toContain(link.token);
      expect(await staffPage.title()).toContain('Application |');

      for (const text of ['Ana', 'Martínez', 'Springfield', 'U.S. Citizen']) {
        await expectVisible(staffPage.getByText(text, { exact: true }).first());
      }
      expect(await staffPage.getByText(/A hidden comment nobody should read/).count()).toBe(0);
      // The SSN is not printed in full.
      expect(await staffPage.content()).not.toContain('123-45-6789');
      // docs/product.md: read-only text with no header, footer, separators, buttons, nav or popover.
      for (const role of ['banner', 'contentinfo', 'navigation', 'button', 'separator'] as const) {
        expect(await staffPage.getByRole(role).count(), role).toBe(0);
      }
      expect(await staffPage.locator('input, select, textarea, button, hr').count()).toBe(0);
      expect(await staffPage.getByRole('link', { name: /Step \d/ }).count()).toBe(0);
      await staffA11y.check('/print');

      // The browser's own print (Chromium prints with the print stylesheet): every answer on
      // paper, one step per page at least, and nothing but the application.
      const printed = await staffPage.pdf({ format: 'Letter' });
      const printedText = normaliseText(await extractPdfText(printed));
      for (const text of ['Ana Lucía Martínez', '12 Elm Street', 'Springfield', 'Final Steps']) {
        expect(printedText).toContain(text);
      }
      expect(await countPdfPages(printed)).toBeGreaterThanOrEqual(3);

      // A reload has no token left: the staff member is told to open the link again.
      await staffPage.reload();
      await expectVisible(staffPage.getByRole('heading', { level: 1, name: TEXT.reopenTitle }));
      await staffA11y.check('/print (reloaded)');
      await staffA11y.expectNone('print-view');
    } finally {
      await staff.close();
    }
  });

  it('shows the server’s message for an expired link', async () => {
    const email = await seedApplicant('expired', { first_name: 'Eve', last_name: 'Expired' });
    const link = await mintServiceToken(server, email, '1s');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { staff, staffPage } = await openStaffPage();
    try {
      await staffPage.goto(link.url);
      const heading = staffPage.getByRole('heading', { level: 1, name: TEXT.printErrorTitle });
      await expectVisible(heading);
      expect(await staffPage.getByTestId('print-message').innerText()).toMatch(/expired/i);
      await staffPage.waitForURL((url) => url.search === '');
      expect(await staffPage.getByText('Eve', { exact: true }).count()).toBe(0);
      const staffA11y = new A11yFindings(staffPage);
      await staffA11y.check('/print (expired link)');
      await staffA11y.expectNone('print-expired');
    } finally {
      await staff.close();
    }
  });
});

describe('the applicant’s PDF copy', () => {
  it('submits, then downloads the PDF of the application from the completion page', async () => {
    await seedApplicant('pdf', COMPLETE);
    await page.goto('/final-steps');
    await expectPage(page, '/final-steps', 'Final Steps');
    // Hold the first status answer so the "being prepared" state stays on screen to be checked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/pdf', async (route) => {
      await held;
      await route.fallback();
    });
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/completion');
    await expectVisible(page.getByText(TEXT.submitted));
    const preparing = page.getByRole('button', { name: TEXT.download });
    await expectVisible(preparing);
    expect(await preparing.isDisabled()).toBe(true);
    await expectVisible(page.getByRole('status').filter({ hasText: TEXT.preparing }));
    await a11y.check('/completion (PDF being prepared)');
    release();
    await page.unroute('**/api/pdf');

    const link = page.getByRole('link', { name: TEXT.download });
    await expectVisible(link);
    expect(await link.getAttribute('download')).not.toBeNull();
    await a11y.check('/completion (PDF ready)');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = await download.path();
    const bytes = await readFile(file);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await writeFile(path.join(ARTIFACTS_DIR, 'application-copy.pdf'), bytes);
    expect(isPdf(bytes), 'the download is a PDF').toBe(true);
    const text = normaliseText(await extractPdfText(bytes));
    expect(text).toContain('Ana');
    expect(text).toContain('Martínez');
    expect(text).toContain('12 Elm Street');
    await a11y.expectNone('completion-pdf');
  });
});

describe('a prefill link', () => {
  it('fills the form for an anonymous visitor', async () => {
    // docs/design-decisions.md, 9: a prefill link never carries the SSN; the command refuses the file.
    await expect(
      createPrefillLink(server, { first_name: 'Grace', ssn: '123-45-6789' }),
    ).rejects.toThrow(/ssn/);
    const link = await createPrefillLink(server, {
      first_name: 'Grace',
      last_name: 'Hopper',
      city: 'Arlington',
    });
    expect(new URL(link.url).pathname).toBe('/about');
    await page.goto(link.url);
    await expectPage(page, '/about', 'About You');
    await expectVisible(page.getByText(TEXT.anonymous));
    await expect.poll(() => field(page, 'first_name').inputValue()).toBe('Grace');
    expect(await field(page, 'last_name').inputValue()).toBe('Hopper');
    expect(await field(page, 'city').inputValue()).toBe('Arlington');
    await a11y.check('/about (prefilled)');

    // An unknown link leaves an empty form and says why.
    await page.goto('/about?token=not-a-real-token');
    await expectPage(page, '/about', 'About You');
    await expectVisible(page.getByText(/This link has expired or is not valid/));
    expect(await field(page, 'first_name').inputValue()).toBe('');
    await a11y.expectNone('prefill');
  });
});
