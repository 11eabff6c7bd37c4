import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findBlockingViolations } from '../support/a11y';
import { launchBrowser } from '../support/browser';
import { ARTIFACTS_DIR, startServer, type RunningServer } from '../support/server';

// What the applicant reads. Quoted (docs/) texts are verbatim; the others are the server's own
// messages, repeated here on purpose so a wording change is a visible, reviewed decision.
const TEXT = {
  signupSent: "We've emailed you a 6-digit confirmation code. Please enter it below.",
  confirmed: 'Your account has been confirmed. Please log in.',
  loggedOut: 'You have been logged out.',
  forgotSent:
    'If an account exists for that email address, we have emailed you a link to reset your password.',
  resetDone: 'Your password has been reset. Please log in with your new password.',
  loginFailed: 'Incorrect email address or password.',
  sessionInvalid: 'Your session is invalid. Please clear your cookies and login again.',
  checklistTitle: 'Your password must have:',
};

const MARKER_COOKIE_PREFIX = 'CognitoIdentityServiceProvider';
const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');
const FAILURES_DIR = path.join(ARTIFACTS_DIR, 'failures');
const WAIT_MS = 15_000;
const VIEWPORT = {
  phone: { width: 375, height: 812 },
  tablet: { width: 800, height: 1000 },
  desktop: { width: 1280, height: 900 },
};

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageErrors: string[];
const a11yFindings: string[] = [];

beforeAll(async () => {
  server = await startServer({}, { name: 'accounts' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

beforeEach(async () => {
  context = await browser.newContext({ baseURL: server.baseUrl, viewport: VIEWPORT.desktop });
  context.setDefaultTimeout(WAIT_MS);
  page = await context.newPage();
  pageErrors = [];
  a11yFindings.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    const file = path.join(FAILURES_DIR, `${task.name.replace(/\W+/g, '-').toLowerCase()}.png`);
    try {
      await mkdir(FAILURES_DIR, { recursive: true });
      await page.screenshot({ path: file, fullPage: true });
      console.warn(`Failure screenshot: ${file} (page was at ${page.url()})`);
    } catch (error) {
      // The page may be what broke; the test's own error matters more than the picture.
      console.warn(`No failure screenshot: ${String(error)}`);
    }
    console.warn(`Server log: ${server.logFile}`);
  }
  await context?.close();
});

async function expectPath(pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
  expect(new URL(page.url()).pathname).toBe(pathname);
}

/** Waits for a card's heading: route bundles load on demand, so the page is ready only then. */
async function expectCard(pathname: string, title: string): Promise<void> {
  await expectPath(pathname);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

async function expectVisible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}

/** A message handed over between screens: a status region (success) or an alert (error). */
async function expectNotice(role: 'status' | 'alert', text: string): Promise<void> {
  const notice = page.getByRole(role).filter({ hasText: text });
  await expectVisible(notice);
  expect((await notice.innerText()).trim()).toBe(text);
}

const emailField = () => page.getByRole('textbox', { name: 'Email address' });
// Playwright exposes password inputs as textboxes; `exact` keeps "Confirm password" apart.
const passwordField = (label: string) => page.getByRole('textbox', { name: label, exact: true });

const checklistItems = () => page.getByTestId('password-checklist').getByRole('listitem');

/** Each rule is announced with "(met)" or "(not met)"; waits until the list shows `expected`. */
async function expectChecklist(expected: Record<string, boolean>): Promise<void> {
  for (const [rule, met] of Object.entries(expected)) {
    await expectVisible(
      checklistItems().filter({ hasText: `${rule} (${met ? 'met' : 'not met'})` }),
    );
  }
}

/** Collects rather than throws, so one inaccessible screen does not hide the rest of the flow. */
async function checkAccessibility(screen: string, disableRules: string[] = []): Promise<void> {
  for (const finding of await findBlockingViolations(page, { disableRules })) {
    a11yFindings.push(`${screen}: ${finding}`);
  }
}

async function expectNoAccessibilityFindings(name: string): Promise<void> {
  const report = path.join(ARTIFACTS_DIR, `a11y-violations-${name}.txt`);
  await rm(report, { force: true });
  if (a11yFindings.length > 0) {
    await writeFile(report, a11yFindings.join('\n\n'));
    console.warn(`${a11yFindings.join('\n\n')}\n(also in ${report})`);
  }
  expect(a11yFindings, 'serious or critical axe-core violations').toEqual([]);
}

async function openAccountPopover(): Promise<Locator> {
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  const popover = page.getByRole('dialog').filter({ hasText: 'Logged in as' });
  await expectVisible(popover);
  return popover;
}

describe('accounts in headless Chromium against the real server', () => {
  it('signs up, confirms, logs in and out, and resets a forgotten password', async () => {
    // Mixed case on purpose: the account, the mail and the popover must all use it lowercased.
    const typedEmail = `Ada.Lovelace.${Date.now()}@Example.EDU`;
    const username = typedEmail.toLowerCase();
    const firstPassword = 'Cobalt-Lantern-River-58';
    const secondPassword = 'Quartz-Meadow-Falcon-93';

    // Sign up, watching the live checklist follow the typing.
    await page.goto('/signup');
    await expectCard('/signup', 'Sign Up');
    await expectVisible(page.getByText(TEXT.checklistTitle));
    await emailField().fill(typedEmail);
    await passwordField('Password').fill('cobalt');
    await expectChecklist({
      'At least 12 characters': false,
      'At least 1 uppercase letter': false,
      'At least 1 lowercase letter': true,
      'At least 1 number': false,
      'At least 1 special character': false,
      'No spaces at the beginning or end': true,
    });
    await passwordField('Password').fill(firstPassword);
    await expect.poll(() => checklistItems().filter({ hasText: '(not met)' }).count()).toBe(0);
    expect(await checklistItems().count()).toBe(6);
    await checkAccessibility('/signup');
    await page.getByRole('button', { name: 'Create Account' }).click();

    // Confirm with the code from the outbox.
    await expectCard('/confirm', 'Confirm Your Account');
    await expectNotice('status', TEXT.signupSent);
    await expectVisible(page.getByText(`Enter the 6-digit code we sent to ${username}.`));
    const codeMail = await server.waitForMail({ to: username, subject: /confirmation code/i });
    const code = /Your confirmation code is (\d{6})\b/.exec(codeMail.text)?.[1];
    expect(code, codeMail.text).toBeDefined();
    await checkAccessibility('/confirm');
    await page.getByRole('textbox', { name: 'Confirmation code' }).fill(code ?? '');
    await page.getByRole('button', { name: 'Confirm Account' }).click();

    // Log in, typing the address in mixed case again.
    await expectCard('/login', 'Log In');
    await expectNotice('status', TEXT.confirmed);
    expect(await emailField().inputValue()).toBe(username);
    await emailField().fill(typedEmail);
    await passwordField('Password').fill(firstPassword);
    await page.getByRole('button', { name: 'Submit' }).click();

    await expectPath('/about');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'About You' }));
    const popover = await openAccountPopover();
    await expectVisible(popover.getByText(username, { exact: true }));
    const sessionCookie = (await context.cookies()).find((cookie) => cookie.name.endsWith('sid'));
    expect(sessionCookie?.httpOnly).toBe(true);

    // Log out: back on /login with the message, and neither cookie left behind.
    await popover.getByRole('button', { name: 'Log Out' }).click();
    await expectCard('/login', 'Log In');
    await expectNotice('status', TEXT.loggedOut);
    const leftover = (await context.cookies()).map((cookie) => cookie.name);
    expect(
      leftover.filter((name) => name.endsWith('sid') || name.startsWith(MARKER_COOKIE_PREFIX)),
    ).toEqual([]);
    await checkAccessibility('/login');

    // Forgot password.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expectCard('/forgot', 'Forgot Password');
    await emailField().fill(typedEmail);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expectNotice('status', TEXT.forgotSent);
    await checkAccessibility('/forgot');

    // Open the e-mailed link.
    const resetMail = await server.waitForMail({ to: username, subject: /reset/i });
    const linkText = /https?:\/\/\S+\/reset\?\S+/.exec(resetMail.text)?.[0];
    expect(linkText, resetMail.text).toBeDefined();
    const link = new URL(linkText ?? '');
    expect(link.origin).toBe(server.baseUrl);
    expect(link.searchParams.get('username')).toBe(username);
    const resetId = link.searchParams.get('id') ?? '';
    expect(resetId).not.toBe('');
    await page.goto(link.href);
    await expectCard('/reset', 'Reset Password');
    await expectVisible(page.getByText(`Choose a new password for ${username}.`));
    await passwordField('New password').fill(secondPassword);
    await passwordField('Confirm password').fill(secondPassword);
    await checkAccessibility('/reset');
    await page.getByRole('button', { name: 'Reset Password' }).click();

    // The old password is refused with the server's message; the new one gets in.
    await expectCard('/login', 'Log In');
    await expectNotice('status', TEXT.resetDone);
    await emailField().fill(typedEmail);
    await passwordField('Password').fill(firstPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Login Card Error' });
    await expectVisible(toast);
    expect(await toast.innerText()).toContain(TEXT.loginFailed);
    expect(new URL(page.url()).pathname).toBe('/login');
    // Known SPA bug: Mantine's toast close button has no accessible name (axe button-name,
    // critical). Drop this exception once apps/web gives it an aria-label.
    await checkAccessibility('/login with an error toast', ['button-name']);
    // Error toasts stay for five minutes and sit over the header's Account button, so the
    // applicant dismisses it as a person would before reaching for the popover.
    await toast.getByRole('button').click();
    await toast.waitFor({ state: 'detached' });

    await passwordField('Password').fill(secondPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectPath('/about');
    const popoverAgain = await openAccountPopover();
    await expectVisible(popoverAgain.getByText(username, { exact: true }));

    // The JavaScript-readable marker alone grants nothing: without the HttpOnly session the
    // profile call is refused and the SPA sends the applicant to /login and drops the marker.
    const marker = (await context.cookies()).find((cookie) =>
      cookie.name.startsWith(MARKER_COOKIE_PREFIX),
    );
    expect(marker).toBeDefined();
    await context.clearCookies();
    if (marker) await context.addCookies([marker]);
    await page.goto('/about');
    await expectCard('/login', 'Log In');
    await expectNotice('alert', TEXT.sessionInvalid);
    const markers = (await context.cookies()).filter((cookie) =>
      cookie.name.startsWith(MARKER_COOKIE_PREFIX),
    );
    expect(markers).toEqual([]);

    // The browser saw real secrets go by; none of them may reach the server's log.
    const log = server.output.join('');
    const secrets = { firstPassword, secondPassword, code, resetId, sid: sessionCookie?.value };
    for (const [name, secret] of Object.entries(secrets)) {
      if (secret) expect(log.includes(secret), `${name} appears in ${server.logFile}`).toBe(false);
    }

    await expectNoAccessibilityFindings('flow');
    expect(pageErrors).toEqual([]);
  });

  it('shows every auth card button whole on a 375 px phone', async () => {
    await page.setViewportSize(VIEWPORT.phone);
    for (const [pathname, title] of [
      ['/login', 'Log In'],
      ['/signup', 'Sign Up'],
      ['/confirm', 'Confirm Your Account'],
      ['/forgot', 'Forgot Password'],
      ['/reset?username=someone%40example.edu&id=0123456789abcdef', 'Reset Password'],
    ] as const) {
      await page.goto(pathname);
      await expectCard(pathname.split('?')[0]!, title);
      const card = page.getByRole('region', { name: title });
      const buttons = await card.getByRole('button').all();
      expect(buttons.length, `buttons on ${pathname}`).toBeGreaterThan(0);
      for (const button of buttons) {
        // Mantine cuts a label that does not fit (overflow: hidden): its text is wider than its box.
        const clipped = await button.evaluate((element) => {
          const boxes = [element, ...Array.from(element.querySelectorAll('span'))];
          const cut = boxes.filter((box) => box.scrollWidth > box.clientWidth + 1);
          const rect = element.getBoundingClientRect();
          const outside = rect.left < 0 || rect.right > window.innerWidth;
          return cut.length > 0 || outside
            ? `${element.textContent ?? ''}: ${cut.map((box) => `${box.scrollWidth}px text in ${box.clientWidth}px`).join(', ')}${outside ? ' outside the window' : ''}`
            : '';
        });
        expect(clipped, `a button cut short on ${pathname}`).toBe('');
      }
      await page.screenshot({
        path: path.join(SCREENSHOTS_DIR, `${pathname.slice(1).split('?')[0]!}-buttons-375.png`),
        fullPage: true,
      });
    }
    expect(pageErrors).toEqual([]);
  });

  it('lays out /login and /signup at phone, tablet and desktop widths', async () => {
    await mkdir(SCREENSHOTS_DIR, { recursive: true });
    for (const [screen, title] of [
      ['login', 'Log In'],
      ['signup', 'Sign Up'],
    ] as const) {
      for (const viewport of Object.values(VIEWPORT)) {
        await page.setViewportSize(viewport);
        await page.goto(`/${screen}`);
        await expectCard(`/${screen}`, title);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `/${screen} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(
          0,
        );
        // The header's label may collapse to the avatar on phones; its name must not.
        await expectVisible(page.getByRole('button', { name: 'Account', exact: true }));
        await checkAccessibility(`/${screen} at ${viewport.width} px`);
        await page.screenshot({
          path: path.join(SCREENSHOTS_DIR, `${screen}-${viewport.width}.png`),
          fullPage: true,
        });
      }
    }
    await expectNoAccessibilityFindings('layout');
    expect(pageErrors).toEqual([]);
  });
});
