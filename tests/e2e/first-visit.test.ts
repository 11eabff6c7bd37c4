import { authenticator } from 'otplib';
import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectPage, expectVisible, field } from '../support/applicant';
import type { RunningServer } from '../support/server';
import { addStaffMember, seedSubmittedApplicant, setPasswordAndSignIn } from '../support/staff';
import { useBrowserSuite, type BrowserSuite } from '../support/suite';

// Issue 26: what a newcomer met on a first visit. A prefill link that no longer works says so on
// the page; the address block says where its suggestions come from; the staff sign-in page loads
// without a console error and signing in leaves no deprecation warning in the server's log; the
// staff application page has one top-level `main` (axe's moderate landmark rules); a new export
// starts from the submitted applications.

const WAIT_MS = 60_000;
const TEXT = {
  prefillTitle: 'This link did not fill in the form',
  prefillGone: 'This link has expired or is not valid. Please start a new application.',
  prefillWhatNow: 'Ask the admissions office for a new link, or fill in the form yourself.',
  addressHelp:
    'Type your street yourself. Then start typing your city or ZIP code in the City or ' +
    'ZIP/Postal Code field and pick a suggestion: it fills in the city, state, ZIP code and country.',
};

let suite: BrowserSuite;
let page: Page;
let server: RunningServer;

useBrowserSuite({ name: 'first-visit', waitMs: WAIT_MS }, (bound) => {
  suite = bound;
  ({ page, server } = bound);
});

/** Messages the page logged as errors, including the browser's own "Failed to load resource". */
function collectConsoleErrors(target: Page): string[] {
  const errors: string[] = [];
  target.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  return errors;
}

describe('an applicant on a first visit', () => {
  it('is told on the page when a prefill link no longer works, and what to do', async () => {
    for (const link of ['/about?token=not-a-real-token', '/about?token=']) {
      await page.goto(link);
      await expectPage(page, '/about', 'About You');
      // On the page itself (not only a toast that fades): what happened and what to do now.
      const notice = page
        .getByRole('main')
        .getByRole('alert')
        .filter({ hasText: TEXT.prefillTitle });
      await expectVisible(notice);
      expect(await notice.innerText()).toContain(TEXT.prefillGone);
      expect(await notice.innerText()).toContain(TEXT.prefillWhatNow);
      expect(await field(page, 'first_name').inputValue()).toBe('');
      await suite.a11y.check(`${link} (link gone)`);
    }
    // Without a link there is nothing to say.
    await page.goto('/about');
    await expectPage(page, '/about', 'About You');
    expect(await page.getByText(TEXT.prefillTitle).count()).toBe(0);
    await suite.a11y.expectNone('first-visit-prefill');
  });

  it('reads under the street line where address suggestions come from', async () => {
    await page.goto('/about');
    await expectPage(page, '/about', 'About You');
    const street = page.getByRole('textbox', { name: 'Address', exact: true });
    await expectVisible(street);
    await expectVisible(page.getByText(TEXT.addressHelp));
    // Tied to the field, so a screen reader says it on entering the street line.
    const describedBy = (await street.getAttribute('aria-describedby')) ?? '';
    const description = await page.evaluate(
      (ids) =>
        ids
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      describedBy,
    );
    expect(description).toContain(TEXT.addressHelp);
    // What it promises works: a ZIP typed in its own field offers the place.
    await page.getByRole('textbox', { name: 'ZIP/Postal Code', exact: true }).fill('62701');
    await expectVisible(page.getByRole('option', { name: /^Springfield, IL 62701\b/ }));
    await suite.a11y.expectNone('first-visit-address');
  });
});

describe('a staff member on a first visit', () => {
  it('signs in without console errors or server warnings, then reads and exports', async () => {
    const consoleErrors = collectConsoleErrors(page);
    const fullName = 'Ingrid Nyström';
    await seedSubmittedApplicant(
      suite.browser,
      server,
      { first_name: 'Ingrid', middle_name: '', last_name: 'Nyström' },
      WAIT_MS,
    );

    await page.goto('/staff');
    await page.waitForURL((url) => url.pathname === '/staff/sign-in');
    await expectVisible(page.getByRole('heading', { level: 1, name: /sign in/ }));
    await page.waitForLoadState('networkidle');
    // Not being signed in yet is the normal case, not an error.
    expect.soft(consoleErrors, 'console errors on the sign-in page').toEqual([]);
    await suite.a11y.check('/staff/sign-in', { includeModerate: true });

    const staffEmail = `first.${Date.now()}@staff.example.edu`;
    const setupLink = await addStaffMember(server, staffEmail, 'exporter');
    await setPasswordAndSignIn(page, setupLink, staffEmail);
    const secret = page.getByTestId('totp-secret');
    await expectVisible(secret);
    const key = ((await secret.textContent()) ?? '').trim();
    await page
      .getByLabel('6-digit code from your authenticator app')
      .fill(authenticator.generate(key));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByText(`${staffEmail} (exporter)`));
    // The enrolment and the code check ran on the server: its log carries no deprecation.
    const warnings = server.output
      .join('')
      .split('\n')
      .filter((line) => /DeprecationWarning|DEP0\d+/.test(line));
    expect.soft(warnings, `server log ${server.logFile}`).toEqual([]);

    await page.getByLabel('Search by name or e-mail').fill('nystrom');
    await page.getByRole('link', { name: fullName }).click();
    await expectVisible(
      page.getByRole('heading', { level: 1, name: `Application of ${fullName}` }),
    );
    expect.soft(await page.getByRole('main').count(), 'main landmarks').toBe(1);
    await suite.a11y.check('/staff/applications/:id', { includeModerate: true });

    await page.getByRole('link', { name: 'Exports' }).click();
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Exports' }));
    // A new export starts from the submitted applications, not from every status.
    const status = page.getByLabel('Status');
    expect.soft(await status.inputValue()).toBe('submitted');
    expect(
      await status.evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.text),
    ).toBe('Submitted');
    await suite.a11y.check('/staff/exports', { includeModerate: true });
    expect.soft(consoleErrors, 'console errors in the staff area').toEqual([]);
    await suite.a11y.expectNone('first-visit-staff');
  });
});
