// Issue 26: the application opened at the address the server listens on (http://127.0.0.1:<port>)
// while PUBLIC_URL keeps its default (http://localhost:<port>): a real Chromium sends its own
// Origin and Sec-Fetch-Site, which the cross-site guard once compared with PUBLIC_URL alone, so
// sign-up, log-in and every save answered 403 "This request came from another website and was
// refused." Here each goes through the SPA's own screens and is accepted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  PASSWORD,
  expectPage,
  field,
  openPage,
  readSavedAnswers,
  recordFailure,
  uniqueEmail,
  waitForSaved,
} from '../support/applicant';
import { launchBrowser } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

const REFUSED = 'This request came from another website and was refused.';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page | undefined;

beforeAll(async () => {
  // PUBLIC_URL empty: the server's default, http://localhost:<port>, not the 127.0.0.1 address
  // the suite opens.
  server = await startServer({ PUBLIC_URL: '' }, { name: 'open-address' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

it('signs up, logs in and saves at http://127.0.0.1:<port> with the default PUBLIC_URL', async (test) => {
  expect(new URL(server.baseUrl).hostname).toBe('127.0.0.1');
  const opened = await openPage(browser, server, 20_000);
  context = opened.context;
  page = opened.page;
  const refusals: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403)
      refusals.push(`${response.request().method()} ${response.url()}`);
  });
  try {
    const email = uniqueEmail('loopback');
    await page.goto('/signup');
    await expectPage(page, '/signup', 'Sign Up');
    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expectPage(page, '/confirm', 'Confirm Your Account');
    const mail = await server.waitForMail({ to: email, subject: /confirmation code/i });
    const code = /Your confirmation code is (\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await page.getByRole('textbox', { name: 'Confirmation code' }).fill(code);
    await page.getByRole('button', { name: 'Confirm Account' }).click();

    await expectPage(page, '/login', 'Log In');
    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();

    await expectPage(page, '/about', 'About You');
    await field(page, 'first_name').fill('Grace');
    await field(page, 'last_name').fill('Hopper');
    await field(page, 'last_name').blur();
    await waitForSaved(page);
    expect(await readSavedAnswers(page)).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    expect(refusals).toEqual([]);
    expect(await page.getByText(REFUSED).count()).toBe(0);
    expect(opened.pageErrors).toEqual([]);
  } catch (error) {
    await recordFailure(page, server, `open-address-${test.task.name}`);
    throw error;
  }
}, 120_000);
