import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { authenticator } from 'otplib';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../services/api/test/support/oidc-test-provider';
import { STAFF_EXPORT_MESSAGES } from '../../packages/api-contract/src/index';
import { A11yFindings, expectVisible, openPage, recordFailure } from '../support/applicant';
import { launchBrowser } from '../support/browser';
import { extractPdfText, isPdf, normaliseText } from '../support/pdf';
import { findFreePort, startServer, type RunningServer } from '../support/server';
import { addStaffMember, seedSubmittedApplicant, setPasswordAndSignIn } from '../support/staff';

// Issue 18 in the browser: a staff member signs in (through a real OpenID Connect provider on
// loopback, or with a local account and TOTP), finds an applicant by part of the name typed
// without its accent, reads the application, downloads its PDF, exports the submitted
// applications and downloads the zip. axe-core checks every staff page on the way. Issue 31: the
// Webhooks page shows a subscription added with the CLI and the submission's delivery, and a CSV
// export takes the identifiers with a reason.

const WAIT_MS = 60_000;
// Staff pages are held to moderate findings too: the application page once had a `main` inside
// the layout's `main` (axe: landmark-no-duplicate-main, landmark-main-is-top-level, landmark-unique).
const STAFF_AXE = { includeModerate: true };
// An export renders each PDF in a job on two cores shared with the server.
const EXPORT_WAIT_MS = 110_000;
// Nothing answers there: the delivery stays in the log (pending or failed) whatever the attempt meets.
const WEBHOOK_URL = 'https://sis.example.invalid/hooks/admissions';

let server: RunningServer;
let idp: TestOidcProvider;
let browser: Browser;
let page: Page;
let closePage: () => Promise<void>;
let a11y: A11yFindings;
let pageErrors: string[];

beforeAll(async () => {
  const port = await findFreePort();
  idp = await startTestOidcProvider(`http://127.0.0.1:${port}/staff/auth/oidc/callback`);
  server = await startServer(
    {
      PUBLIC_RATE_LIMIT: '1000',
      STAFF_OIDC_ISSUER: idp.issuer,
      STAFF_OIDC_CLIENT_ID: idp.clientId,
      STAFF_OIDC_CLIENT_SECRET: idp.clientSecret,
      STAFF_OIDC_ALLOWED_DOMAINS: 'staff.example.edu',
      STAFF_OIDC_GROUP_CLAIM: 'groups',
      STAFF_OIDC_EXPORTER_GROUPS: 'admissions-exporters',
    },
    { name: 'staff', port },
  );
  // Before any submission, so that each test's is told of it (with the CLI, as an operator adds one).
  await server.runCli([
    'webhooks',
    'add',
    '--url',
    WEBHOOK_URL,
    '--events',
    'application.submitted',
  ]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.close();
});

beforeEach(async () => {
  const opened = await openPage(browser, server, WAIT_MS);
  ({ page, pageErrors } = opened);
  closePage = () => opened.context.close();
  a11y = new A11yFindings(page);
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    await recordFailure(page, server, `staff-${task.name}`);
    a11y.warnIfAny(task.name);
  }
  await closePage();
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

/** Nothing wider than the window: on a phone the tables scroll inside their own box. */
async function expectNoSidewaysScroll(): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `the page is ${overflow}px wider than the window`).toBeLessThanOrEqual(0);
}

/** Webhooks page, from the nav: the CLI's subscription and the submission it was told of. */
async function readWebhooks(): Promise<void> {
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Webhooks' }));
  await expectVisible(page.getByTestId('webhooks-add-command'));
  const subscription = page.getByRole('region', { name: WEBHOOK_URL });
  await expectVisible(subscription);
  const delivery = subscription
    .getByRole('table', { name: 'Latest deliveries' })
    .getByRole('row')
    .filter({ hasText: 'application.submitted' })
    .first();
  await expectVisible(delivery);
  await expectVisible(delivery.getByRole('link'));
  await expectNoSidewaysScroll();
  await a11y.check('/staff/webhooks', STAFF_AXE);
}

/** A CSV with the SSN and A-Number: refused without a reason, then listed and marked. */
async function exportSensitiveCsv(): Promise<void> {
  await page.getByRole('link', { name: 'Exports' }).click();
  await page.getByLabel('What to download').selectOption({
    label: 'Data file (CSV): one row per application',
  });
  await page.getByLabel('Include Social Security and alien registration numbers').check();
  await page.getByRole('button', { name: 'Start export' }).click();
  await expectVisible(page.getByText(STAFF_EXPORT_MESSAGES.reasonRequired));
  await a11y.check('/staff/exports (sensitive data, no reason)', STAFF_AXE);
  await page.getByLabel('Reason (kept in the audit log)').fill('Loading admits into the SIS');
  await page.getByRole('button', { name: 'Start export' }).click();
  const row = page.locator('tr[data-export-id]').filter({ hasText: 'Data (CSV)' }).first();
  await expectVisible(row.getByText('With SSN and A-Number'));
  await row.and(page.locator('[data-status="completed"]')).waitFor({ timeout: EXPORT_WAIT_MS });
  await expectVisible(row.getByRole('link', { name: 'Download CSV' }));
}

async function downloadBytes(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFile(file);
}

/**
 * From the list: search by `search`, open `fullName`'s application, check the print view, download
 * the PDF; then on the exports page export the submitted applications and download the zip.
 */
async function findReadDownloadAndExport(search: string, fullName: string, email: string) {
  await page.waitForURL((url) => url.pathname === '/staff');
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Applications' }));
  // The counts per status are on top.
  await expectVisible(page.getByText(/^Submitted \(\d+\)$/));
  await expectNoSidewaysScroll();
  await a11y.check('/staff (list)', STAFF_AXE);

  await page.getByLabel('Search by name or e-mail').fill(search);
  const link = page.getByRole('link', { name: fullName });
  await expectVisible(link);
  const row = page.getByRole('row').filter({ has: link });
  await expectVisible(row.getByText(email));
  // Labels from the definition, not codes.
  await expectVisible(row.getByText('Submitted', { exact: true }));
  // The search is in the address (a reload or a shared link shows the same list).
  await page.waitForURL((url) => url.searchParams.get('q') === search);

  await link.click();
  await page.waitForURL((url) => url.pathname.startsWith('/staff/applications/'));
  await expectVisible(page.getByRole('heading', { level: 1, name: `Application of ${fullName}` }));
  // The print view, inside the staff area, with the applicant's answers.
  await expectVisible(page.getByText('12 Elm Street', { exact: true }));
  await expectVisible(page.getByRole('heading', { level: 2, name: 'Documents' }));
  await expectNoSidewaysScroll();
  await a11y.check('/staff/applications/:id', STAFF_AXE);

  const [pdfDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download PDF' }).click(),
  ]);
  const pdf = await downloadBytes(pdfDownload);
  expect(isPdf(pdf)).toBe(true);
  expect(normaliseText(await extractPdfText(pdf))).toContain(fullName);

  await page.getByRole('link', { name: 'Exports' }).click();
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Exports' }));
  await page.getByLabel('Status').selectOption('submitted');
  await page.getByLabel('Name or e-mail contains').fill('');
  await a11y.check('/staff/exports', STAFF_AXE);
  await page.getByRole('button', { name: 'Start export' }).click();
  const exportRow = page.locator('tr[data-export-id]').first();
  await expectVisible(exportRow);
  await exportRow
    .and(page.locator('[data-status="completed"]'))
    .waitFor({ timeout: EXPORT_WAIT_MS });
  await expectNoSidewaysScroll();
  await a11y.check('/staff/exports (ready)', STAFF_AXE);
  const [zipDownload] = await Promise.all([
    page.waitForEvent('download'),
    exportRow.getByRole('link', { name: 'Download zip' }).click(),
  ]);
  expect(zipDownload.suggestedFilename()).toMatch(/\.zip$/);
  const files = unzipSync(new Uint8Array(await downloadBytes(zipDownload)));
  const names = Object.keys(files);
  expect(names).toContain('index.csv');
  const pdfs = names.filter((name) => name.endsWith('.pdf'));
  expect(pdfs.length).toBeGreaterThanOrEqual(1);
  expect(isPdf(files[pdfs[0]!]!)).toBe(true);
  expect(Buffer.from(files['index.csv']!).toString('utf8')).toContain(email);
}

describe('the staff area', () => {
  it('signs in through the identity provider, finds, reads, downloads and exports', async () => {
    const email = await seedSubmittedApplicant(
      browser,
      server,
      {
        first_name: 'Zoë',
        middle_name: '',
        last_name: 'Østergaard',
      },
      WAIT_MS,
    );
    idp.signInAs({
      sub: 'officer-1',
      email: 'officer@staff.example.edu',
      groups: ['admissions-exporters'],
    });

    await page.goto('/staff');
    await page.waitForURL((url) => url.pathname === '/staff/sign-in');
    await expectVisible(page.getByRole('heading', { level: 1, name: /sign in/ }));
    await a11y.check('/staff/sign-in', STAFF_AXE);
    // Through the provider (authorization code with PKCE) and back, signed in.
    await page.getByRole('link', { name: 'Sign in with your institution account' }).click();
    await expectVisible(page.getByText('officer@staff.example.edu (exporter)'));

    // "ostergaard": the Ø typed as a plain o.
    await findReadDownloadAndExport('ostergaard', 'Zoë Østergaard', email);
    await exportSensitiveCsv();
    await readWebhooks();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/staff/sign-in');
    const after = await page.request.get('/staff/api/me');
    expect(after.status()).toBe(401);
    await a11y.expectNone('staff-oidc');
  });

  it('signs in with a local account and TOTP, finds, reads, downloads and exports (on a phone)', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const email = await seedSubmittedApplicant(
      browser,
      server,
      {
        first_name: 'Søren',
        middle_name: '',
        last_name: 'Kierkegård',
      },
      WAIT_MS,
    );
    const staffEmail = `local.${Date.now()}@staff.example.edu`;
    const setupLink = await addStaffMember(server, staffEmail, 'exporter');

    await setPasswordAndSignIn(page, setupLink, staffEmail, () =>
      a11y.check('/staff/setup', STAFF_AXE),
    );
    // First sign-in: the key to enrol, as a QR code and as text.
    await expectVisible(page.getByRole('heading', { name: 'Set up your second factor' }));
    await expectVisible(page.getByRole('img', { name: 'QR code of your authenticator key' }));
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await a11y.check('/staff/sign-in (TOTP enrolment)', STAFF_AXE);

    const codeField = page.getByLabel('6-digit code from your authenticator app');
    // A wrong code is refused with the server's message.
    const wrong = String((Number(authenticator.generate(secret)) + 1) % 1_000_000).padStart(6, '0');
    await codeField.fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByRole('alert').filter({ hasText: 'That code is not correct' }));
    await codeField.fill(authenticator.generate(secret));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByText(`${staffEmail} (exporter)`));

    // "kierkegard": the å typed as a plain a, and only part of the name.
    await findReadDownloadAndExport('kierkegard', 'Søren Kierkegård', email);
    await readWebhooks();
    await a11y.expectNone('staff-local');
  });
});
