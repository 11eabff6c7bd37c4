import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { findBlockingViolations, type AxeCheckOptions } from './a11y';
import { ARTIFACTS_DIR, type RunningServer } from './server';

// The minimum of tests/e2e/application.test.ts's local helpers that the lookup and document
// suites need, taking the page and server as arguments instead of module state.

export const PASSWORD = 'Cobalt-Lantern-River-58';
export const FAILURES_DIR = path.join(ARTIFACTS_DIR, 'failures');
export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');

export function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.edu`;
}

/** A fresh context and page at the desktop width, with every wait bounded by `timeoutMs`. */
export async function openPage(
  browser: Browser,
  server: RunningServer,
  timeoutMs: number,
): Promise<{ context: BrowserContext; page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(timeoutMs);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page, pageErrors };
}

/** A full-page screenshot named after the failed test, and where to look next. */
export async function recordFailure(page: Page, server: RunningServer, testName: string) {
  await mkdir(FAILURES_DIR, { recursive: true });
  const file = path.join(FAILURES_DIR, `${testName.replace(/\W+/g, '-').toLowerCase()}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
  console.warn(`Failure screenshot: ${file} at ${page.url()}`);
  console.warn(`Server log: ${server.logFile}`);
}

export async function expectPage(page: Page, pathname: string, title: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

export async function expectVisible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}

/** Signs up and confirms through the API (the accounts suite covers the cards themselves). */
export async function createAccount(
  page: Page,
  server: RunningServer,
  email: string,
): Promise<void> {
  const signup = await page.request.post('/public/signup', {
    data: { username: email, password: PASSWORD },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  const mail = await server.waitForMail({ to: email, subject: /confirmation code/i });
  const code = /Your confirmation code is (\d{6})\b/.exec(mail.text)?.[1] ?? '';
  const confirm = await page.request.post('/public/confirm', { data: { username: email, code } });
  expect(confirm.ok(), await confirm.text()).toBe(true);
}

/** Logs in with the browser's own cookie jar, as a previous visit would have. */
export async function logInThroughApi(page: Page, email: string): Promise<void> {
  const login = await page.request.post('/public/login', {
    data: { username: email, password: PASSWORD },
  });
  expect(login.ok(), await login.text()).toBe(true);
}

export async function saveThroughApi(page: Page, answers: Record<string, string>): Promise<void> {
  const response = await page.request.put('/api/answer', { data: answers });
  expect(response.ok(), await response.text()).toBe(true);
}

export async function readSavedAnswers(page: Page): Promise<Record<string, string>> {
  const response = await page.request.get('/api/profile');
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { answer: Record<string, string> }).answer;
}

/** Inputs carry their question key as id (apps/web/README.md). */
export const field = (page: Page, key: string) => page.locator(`[id="${key}"]`);

export async function waitForSaved(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('save-status').first().getAttribute('data-state'))
    .toBe('saved');
}

/** Collects axe-core's blocking findings per screen, reported once per test. */
export class A11yFindings {
  private readonly findings: string[] = [];

  constructor(private readonly page: Page) {}

  async check(screen: string, options: AxeCheckOptions = {}): Promise<void> {
    for (const finding of await findBlockingViolations(this.page, options)) {
      this.findings.push(`${screen}: ${finding}`);
    }
  }

  /** A test that fails before `expectNone` still prints what axe found until then. */
  warnIfAny(testName: string): void {
    if (this.findings.length > 0) {
      console.warn(`axe findings before "${testName}" failed:\n${this.findings.join('\n\n')}`);
    }
  }

  async expectNone(reportName: string): Promise<void> {
    const report = path.join(ARTIFACTS_DIR, `a11y-violations-${reportName}.txt`);
    await rm(report, { force: true });
    if (this.findings.length > 0) {
      await writeFile(report, this.findings.join('\n\n'));
      console.warn(`${this.findings.join('\n\n')}\n(also in ${report})`);
    }
    expect(this.findings, 'blocking axe-core violations').toEqual([]);
  }
}

/** The answers without these keys and their `_desc` companions. */
export function without(
  answers: Readonly<Record<string, string>>,
  keys: readonly string[],
): Record<string, string> {
  const drop = new Set(keys.flatMap((key) => [key, `${key}_desc`]));
  return Object.fromEntries(Object.entries(answers).filter(([key]) => !drop.has(key)));
}

/** Add-another counts and tab choices as the SPA saves them (docs/api.md). */
export async function saveLayoutThroughApi(
  page: Page,
  layout: {
    addAnother?: Readonly<Record<string, number>>;
    tabs?: Readonly<Record<string, string>>;
  },
): Promise<void> {
  for (const [button_id, num_components] of Object.entries(layout.addAnother ?? {})) {
    const response = await page.request.put('/api/add-another', {
      data: { button_id, num_components },
    });
    expect(response.ok(), await response.text()).toBe(true);
  }
  for (const [tab_id, chosen_tab] of Object.entries(layout.tabs ?? {})) {
    const response = await page.request.put('/api/tabs', { data: { tab_id, chosen_tab } });
    expect(response.ok(), await response.text()).toBe(true);
  }
}

/** Started → validating → submitted, as the SPA's Submit button does it. */
export async function submitThroughApi(page: Page): Promise<void> {
  for (const web_status of ['started', 'validating']) {
    const response = await page.request.post('/api/web-status', { data: { web_status } });
    expect(response.ok(), await response.text()).toBe(true);
  }
  // No body, but sent as JSON like the SPA does: the server refuses other content types (415).
  const submit = await page.request.post('/api/submit', {
    headers: { 'content-type': 'application/json' },
  });
  expect(submit.ok(), await submit.text()).toBe(true);
}

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * A document answered the way the SPA's upload widget does it (docs/api.md): a presigned POST, the
 * multipart upload to its URL (fields first, the file last), the conversion started, then its
 * status polled until COMPLETED, when the answer reads ANSWERED.
 */
export async function uploadDocumentThroughApi(
  page: Page,
  answerKey: string,
  file: UploadFile,
  timeoutMs = 60_000,
): Promise<void> {
  const presigned = await page.request.post('/api/presigned-url', {
    data: { answer_key: answerKey },
  });
  expect(presigned.ok(), await presigned.text()).toBe(true);
  const { url, fields } = (await presigned.json()) as {
    url: string;
    fields: Record<string, string>;
  };
  const upload = await page.request.post(url, { multipart: { ...fields, file } });
  expect(upload.ok(), await upload.text()).toBe(true);
  const statusUrl = `/api/pdf/document-answer/${encodeURIComponent(answerKey)}`;
  const start = await page.request.post(statusUrl, {
    data: { file_key: fields.key, file_name: file.name },
  });
  expect(start.ok(), await start.text()).toBe(true);
  await expect
    .poll(
      async () => {
        const response = await page.request.get(statusUrl);
        return ((await response.json()) as { status: string }).status;
      },
      { timeout: timeoutMs, interval: 250 },
    )
    .toBe('COMPLETED');
}
