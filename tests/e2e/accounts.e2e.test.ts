import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { launchBrowser } from '../support/browser';
import { waitForMail } from '../support/outbox';
import { startServer, type RunningServer } from '../support/server';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts/accounts');

describe('accounts in a real browser against the real server', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const shoot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  const notice = (kind: 'success' | 'error') => page.getByTestId(`${kind}-message`);

  it('signs up, confirms, logs in and out, and recovers a forgotten password', async () => {
    const email = `E2E.Student.${Date.now()}@Example.edu`;
    const lowered = email.toLowerCase();
    const firstPassword = 'Correct-Horse-9-Battery';
    const secondPassword = 'Another-Good-7-Phrase';

    // Sign up; the code arrives in the outbox.
    const signedUpAt = Date.now() - 1000;
    await page.goto(`${server.baseUrl}/signup`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel(/^Password/).fill(firstPassword);
    await expect
      .poll(() => page.locator('[data-testid=password-checklist] [data-met=false]').count())
      .toBe(0);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Confirm Your Account' }).waitFor();
    expect(await notice('success').textContent()).toBe(MESSAGES.signupSent);
    const codeMail = await waitForMail(server.outboxDir, lowered, signedUpAt, /\b\d{6}\b/);
    const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? '';

    // Confirm → /login with the confirmation message.
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm Account' }).click();
    await page.getByRole('heading', { name: 'Log In' }).waitFor();
    expect(await notice('success').textContent()).toBe(MESSAGES.confirmed);

    // Log in → /about; the popover shows the lowercased username.
    await page.getByLabel(/^Password/).fill(firstPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${server.baseUrl}/about`);
    await page.getByTestId('profile-username').waitFor();
    await page.getByRole('button', { name: 'Account' }).click();
    expect(await page.getByTestId('account-username').textContent()).toBe(lowered);
    await shoot('logged-in');

    // Log out → /login with the logout message.
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.getByRole('heading', { name: 'Log In' }).waitFor();
    expect(await notice('success').textContent()).toBe(MESSAGES.loggedOut);

    // Forgot → success notice; the e-mailed link opens /reset?username=…&id=….
    const forgotAt = Date.now() - 1000;
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    expect(await notice('success').textContent()).toBe(MESSAGES.forgotSent);
    const resetMail = await waitForMail(server.outboxDir, lowered, forgotAt, /\/reset\?/);
    const link = new URL(/https?:\/\/\S+\/reset\?\S+/.exec(resetMail.text)?.[0] ?? '');
    expect(link.searchParams.get('username')).toBe(lowered);
    expect(link.searchParams.get('id')).toBeTruthy();

    await page.goto(`${server.baseUrl}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.getByLabel(/^New password/).fill(secondPassword);
    await page.getByLabel(/^Confirm password/).fill(secondPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Log In' }).waitFor();
    expect(await notice('success').textContent()).toBe(MESSAGES.resetDone);

    // The old password no longer works; the new one does.
    await page.getByLabel(/^Password/).fill(firstPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Login Card Error').waitFor();
    await page.getByLabel(/^Password/).fill(secondPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${server.baseUrl}/about`);
    await page.getByTestId('profile-username').waitFor();
    await shoot('logged-in-again');
  });

  it('sends a visitor whose session cookie is gone to /login with the session message', async () => {
    const context = page.context();
    const cookies = await context.cookies();
    const marker = cookies.find((cookie) =>
      cookie.name.startsWith('CognitoIdentityServiceProvider'),
    );
    expect(marker).toBeDefined();
    // Keep only the JavaScript-readable marker: it alone must grant nothing.
    await context.clearCookies();
    if (marker) await context.addCookies([marker]);
    await page.goto(`${server.baseUrl}/about`);
    await page.getByRole('heading', { name: 'Log In' }).waitFor();
    expect(await notice('error').textContent()).toBe(MESSAGES.sessionInvalid);
  });
});
