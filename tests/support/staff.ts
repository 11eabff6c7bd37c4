import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { authenticator } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { COMPLETE_ANSWERS } from '../../packages/form/test/fixtures/complete-answers';
import {
  createAccount,
  logInThroughApi,
  openPage,
  PASSWORD,
  saveThroughApi,
  submitThroughApi,
  uniqueEmail,
  without,
} from './applicant';
import type { RunningServer } from './server';

// The CLI's staff commands as an operator runs them, against the test server's configuration.

export interface PrintedLink {
  /** The URL the command printed, as given (PUBLIC_URL is the test server's base URL). */
  url: string;
  /** The token inside it. */
  token: string;
}

function findLink(output: string, pathname: string, param: string): PrintedLink {
  for (const word of output.split(/\s+/)) {
    if (!/^https?:\/\//.test(word)) continue;
    const url = new URL(word);
    const token = url.searchParams.get(param);
    if (url.pathname === pathname && token) return { url: word, token };
  }
  throw new Error(`No ${pathname}?${param}=… link in the command's output:\n${output}`);
}

/** `npm run cli -- service-token --email E [--ttl T]` → the print-view link it prints. */
export async function mintServiceToken(
  server: RunningServer,
  email: string,
  ttl?: string,
): Promise<PrintedLink> {
  const args = ['service-token', '--email', email, ...(ttl ? ['--ttl', ttl] : [])];
  const { stdout } = await server.runCli(args);
  const link = findLink(stdout, '/print', 'service_token');
  if (!stdout.includes(link.token)) throw new Error('The token is not printed on its own');
  return link;
}

/** `npm run cli -- prefill --file answers.json [--ttl T]` → the /about?token=… link it prints. */
export async function createPrefillLink(
  server: RunningServer,
  answers: Readonly<Record<string, string>>,
  ttl?: string,
): Promise<PrintedLink> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-prefill-'));
  try {
    const file = path.join(dir, 'answers.json');
    await writeFile(file, JSON.stringify(answers));
    const { stdout } = await server.runCli([
      'prefill',
      '--file',
      file,
      ...(ttl ? ['--ttl', ttl] : []),
    ]);
    return findLink(stdout, '/about', 'token');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `npm run cli -- staff add --email E --role R` → the one-time set-up link it prints. */
export async function addStaffMember(
  server: RunningServer,
  email: string,
  role: 'reader' | 'exporter' | 'processor',
): Promise<string> {
  const { stdout } = await server.runCli(['staff', 'add', '--email', email, '--role', role]);
  const setupLink = stdout.split(/\s+/).find((word) => word.includes('/staff/setup?token='));
  expect(setupLink, stdout).toBeTruthy();
  return setupLink!;
}

const DOC_KEYS = Object.keys(COMPLETE_ANSWERS).filter((key) => key.endsWith('_doc'));

/**
 * A submitted application with these names (every other answer complete, no documents), made
 * through the API in a browser context of its own; returns the applicant's e-mail.
 */
export async function seedSubmittedApplicant(
  browser: Browser,
  server: RunningServer,
  names: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  const applicant = await openPage(browser, server, timeoutMs);
  try {
    const email = uniqueEmail('staff-reads');
    await createAccount(applicant.page, server, email);
    await logInThroughApi(applicant.page, email);
    await saveThroughApi(applicant.page, {
      ...without(COMPLETE_ANSWERS, DOC_KEYS),
      special_programs: 'NONE',
      special_programs_desc: 'I am not applying to a special program',
      ...names,
    });
    await submitThroughApi(applicant.page);
    return email;
  } finally {
    await applicant.context.close();
  }
}

/**
 * A new local staff member's first steps in the browser: the set-up link's page sets PASSWORD
 * (`onSetupPage` runs once it shows), then e-mail and password on the sign-in page, up to the
 * TOTP step.
 */
export async function setPasswordAndSignIn(
  page: Page,
  setupLink: string,
  email: string,
  onSetupPage: () => Promise<void> = async () => undefined,
): Promise<void> {
  await page.goto(setupLink);
  await page.getByRole('heading', { level: 1, name: /set your password/ }).waitFor();
  await onSetupPage();
  await page.getByLabel(/^New password/).fill(PASSWORD);
  await page.getByLabel(/^Confirm password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await page.getByLabel(/^Email address/).fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * A new local staff member of `role`, signed in on `page`: `staff add`, the set-up page, the first
 * sign-in with the TOTP enrolment and a code from the shown key. Returns the member's e-mail.
 */
export async function signInNewStaffMember(
  page: Page,
  server: RunningServer,
  role: 'reader' | 'exporter' | 'processor',
): Promise<string> {
  const email = `${role}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@staff.example.edu`;
  const setupLink = await addStaffMember(server, email, role);
  await setPasswordAndSignIn(page, setupLink, email);
  const secret = page.getByTestId('totp-secret');
  await secret.waitFor();
  const key = ((await secret.textContent()) ?? '').trim();
  await page
    .getByLabel('6-digit code from your authenticator app')
    .fill(authenticator.generate(key));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`${email} (${role})`).waitFor();
  return email;
}
