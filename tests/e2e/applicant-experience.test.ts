import type { FileChooser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../packages/api-contract/src/index';
import { DEFAULT_PARTNER } from '../../packages/form/src/index';
import { COMPLETE_ANSWERS } from '../../packages/form/test/fixtures/complete-answers';
import { buildPdf } from '../../services/api/test/support/document-fixtures';
import {
  PASSWORD,
  createAccount,
  expectPage,
  expectVisible,
  field,
  logInThroughApi,
  readSavedAnswers,
  saveThroughApi,
  submitThroughApi,
  uniqueEmail,
  waitForSaved,
  without,
} from '../support/applicant';
import type { A11yFindings } from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import type { RunningServer } from '../support/server';

// Issue 17: what an applicant meets, on a desktop and on a 375 px phone — the address lookup,
// the completion page, the tab switch, an unconfirmed login and the upload drop zone — with
// axe-core on every screen passed through.

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 740 },
] as const;

const TEXT = {
  street: '742 Evergreen Terrace',
  switchTitle: 'Switch tabs?',
  switchFromEssay: 'Switching will delete your typed response. Continue?',
  essayRemoved: 'Your typed response was deleted.',
  nextSteps: 'What happens next',
  codeSentTo: 'Enter the 6-digit code we sent to',
  uploadRules: '.png, .jpeg, .jpg, .pdf, .docx · up to 1 MB · file name up to 32 characters',
};
const STATEMENT = {
  doc: 'personal_statement_doc',
  essay: 'personal_statement_essay',
  label: 'Tell us about a challenge you have faced and what you learned from it.',
};
const DOC_KEYS = Object.keys(COMPLETE_ANSWERS).filter((key) => key.endsWith('_doc'));
const COMPLETE = {
  ...without(COMPLETE_ANSWERS, DOC_KEYS),
  special_programs: 'NONE',
  special_programs_desc: 'I am not applying to a special program',
};

// Conversions and PDFs run on two cores shared with other suites: generous waits, never sleeps.
const WAIT_MS = 60_000;

let server: RunningServer;
let page: Page;
let a11y: A11yFindings;

useBrowserSuite({ name: 'applicant-experience', waitMs: WAIT_MS }, (suite) => {
  ({ server, page, a11y } = suite);
});

async function openAs(name: string, path: string, title: string): Promise<string> {
  const email = uniqueEmail(name);
  await createAccount(page, server, email);
  await logInThroughApi(page, email);
  await page.goto(path);
  await expectPage(page, path, title);
  return email;
}

const option = (name: RegExp): Locator => page.getByRole('option', { name });

describe.each(VIEWPORTS)('on a $name ($width px)', (viewport) => {
  const at = (screen: string) => `${screen} @${viewport.width}`;
  const setViewport = () =>
    page.setViewportSize({ width: viewport.width, height: viewport.height });

  it('keeps the typed street while City and ZIP complete the address', async () => {
    await setViewport();
    await openAs(`address-${viewport.name}`, '/about', 'About You');
    const address = page.getByRole('textbox', { name: 'Address', exact: true });
    // A plain text field: a real street offers no list of cities to pick from.
    expect(await address.getAttribute('role')).toBeNull();
    await address.fill(TEXT.street);
    expect(await page.getByRole('listbox').count()).toBe(0);

    const city = page.getByRole('textbox', { name: 'City', exact: true });
    await city.fill('Springfield IL');
    await option(/^Springfield, IL\b/).click();
    await expect.poll(() => field(page, 'state').inputValue()).toBe('IL');
    expect(await field(page, 'country').inputValue()).toBe('USA');
    expect(await city.inputValue()).toBe('Springfield');
    expect(await address.inputValue()).toBe(TEXT.street);
    await a11y.check(at('/about (city picked)'));

    // The ZIP completes the place too, and fills itself.
    const zip = page.getByRole('textbox', { name: 'ZIP/Postal Code', exact: true });
    await zip.fill('62701');
    await option(/^Springfield, IL 62701\b/).click();
    await expect.poll(() => zip.inputValue()).toBe('62701');
    expect(await address.inputValue()).toBe(TEXT.street);
    await address.focus();
    await waitForSaved(page);
    expect(await readSavedAnswers(page)).toMatchObject({
      address_line_1: TEXT.street,
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'USA',
    });
    await a11y.check(at('/about (ZIP picked)'));
    await a11y.expectNone(`address-${viewport.name}`);
  });

  it('gives /completion the frame, the next steps, the PDF copy and Log Out', async () => {
    await setViewport();
    const email = uniqueEmail(`completion-${viewport.name}`);
    await createAccount(page, server, email);
    await logInThroughApi(page, email);
    await saveThroughApi(page, COMPLETE);
    await submitThroughApi(page);
    await page.goto('/completion');
    await expectPage(page, '/completion', 'Application submitted');
    const banner = page.getByRole('banner');
    await expectVisible(banner.getByText(DEFAULT_PARTNER.schoolName));
    await expectVisible(page.getByRole('heading', { name: TEXT.nextSteps }));
    const mail = page.getByRole('link', { name: DEFAULT_PARTNER.admissionEmail });
    expect(await mail.getAttribute('href')).toBe(`mailto:${DEFAULT_PARTNER.admissionEmail}`);
    await expectVisible(page.getByRole('link', { name: DEFAULT_PARTNER.admissionPhone }));
    await expectVisible(
      page.getByRole('link', { name: 'Download a PDF copy of your application' }),
    );
    await a11y.check(at('/completion'));

    await banner.getByRole('button', { name: 'Account' }).click();
    const logOut = page.getByRole('button', { name: 'Log Out' });
    await expectVisible(logOut);
    await a11y.check(at('/completion (account menu)'));
    await logOut.click();
    await expectPage(page, '/login', 'Log In');
    await expectVisible(page.getByText(MESSAGES.loggedOut));
    expect((await page.request.get('/api/profile')).status()).toBe(401);
    await a11y.expectNone(`completion-${viewport.name}`);
  });

  it('asks before a tab switch deletes the typed response, then says it was deleted', async () => {
    await setViewport();
    await openAs(`tabs-${viewport.name}`, '/education', 'Your Academics');
    const tab = (name: string) => page.getByRole('tab', { name, exact: true });
    // Nothing to lose yet: the switch happens at once.
    await tab('Type Your Response').click();
    const essay = page.getByRole('textbox', { name: STATEMENT.label });
    await essay.fill('I learned to ask for help early.');
    await essay.blur();
    await waitForSaved(page);

    const dialog = page.getByRole('dialog', { name: TEXT.switchTitle });
    await tab('Upload a Document').click();
    await expectVisible(dialog.getByText(TEXT.switchFromEssay, { exact: true }));
    await a11y.check(at('/education (switch confirmation)'));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await tab('Type Your Response').getAttribute('aria-selected')).toBe('true');
    expect(await essay.inputValue()).toBe('I learned to ask for help early.');

    await tab('Upload a Document').click();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => tab('Upload a Document').getAttribute('aria-selected')).toBe('true');
    await expectVisible(page.getByRole('status').filter({ hasText: TEXT.essayRemoved }));
    await expect.poll(async () => (await readSavedAnswers(page))[STATEMENT.essay] ?? '').toBe('');
    await a11y.check(at('/education (after the switch)'));
    await a11y.expectNone(`tabs-${viewport.name}`);
  });

  it('takes an unconfirmed account from the login to /confirm, with a resend', async () => {
    await setViewport();
    const email = uniqueEmail(`unconfirmed-${viewport.name}`);
    const signup = await page.request.post('/public/signup', {
      data: { username: email, password: PASSWORD },
    });
    expect(signup.ok(), await signup.text()).toBe(true);
    const first = await server.waitForMail({ to: email, subject: /confirmation code/i });

    await page.goto('/login');
    await expectPage(page, '/login', 'Log In');
    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    // A wrong password says nothing about the account: the usual refusal, still on /login.
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(`${PASSWORD}x`);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectVisible(page.getByText(MESSAGES.loginFailed));
    expect(new URL(page.url()).pathname).toBe('/login');
    await a11y.check(at('/login (refused)'));

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectPage(page, '/confirm', 'Confirm Your Account');
    await expectVisible(page.getByText(MESSAGES.notConfirmed));
    await expectVisible(page.getByText(`${TEXT.codeSentTo} ${email.toLowerCase()}.`));
    await a11y.check(at('/confirm (from the login)'));

    await page.getByRole('button', { name: 'Resend Code' }).click();
    const second = await server.waitForMail({ to: email, subject: /confirmation code/i });
    expect(second.text).not.toBe(first.text);
    const code = /Your confirmation code is (\d{6})\b/.exec(second.text)?.[1] ?? '';
    await page.getByRole('textbox', { name: 'Confirmation code' }).fill(code);
    await page.getByRole('button', { name: 'Confirm Account' }).click();
    await expectPage(page, '/login', 'Log In');
    await expectVisible(page.getByText(MESSAGES.confirmed));
    await a11y.expectNone(`unconfirmed-${viewport.name}`);
  });

  it('uploads through the drop zone by keyboard and shows a failure with its file name', async () => {
    await setViewport();
    await openAs(`dropzone-${viewport.name}`, '/education', 'Your Academics');
    const upload = field(page, STATEMENT.doc);
    const zone = upload.getByTestId('upload-drop-zone');
    await expectVisible(zone);
    expect(await zone.innerText()).toContain(TEXT.uploadRules);
    await a11y.check(at('/education (drop zone)'));

    // Keyboard only: Tab from the selected tab reaches the file input inside the zone.
    await page.getByRole('tab', { name: 'Upload a Document', exact: true }).focus();
    const input = upload.getByLabel(STATEMENT.label);
    for (let i = 0; i < 10 && !(await input.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    // The focus ring is drawn on the zone around the hidden input.
    expect(await zone.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');

    // A file that is no PDF at all: the server's message for its reason, verbatim, after the
    // file's name; the zone is back at once for another file.
    const damaged = Buffer.from('this is not really a PDF, only text with the wrong name\n');
    const failed = page.waitForResponse(
      async (response) =>
        response.request().method() === 'GET' &&
        response.url().endsWith(`/api/pdf/document-answer/${STATEMENT.doc}`) &&
        ((await response.json()) as { status?: string }).status === 'FAILED',
    );
    // Space (then Enter) on the focused input opens the chooser; headless Chromium now and then
    // drops the first key's chooser event, so the key is pressed again rather than failing.
    let chooser: FileChooser | null = null;
    for (const key of ['Space', 'Enter', 'Space']) {
      const opened = page.waitForEvent('filechooser', { timeout: 5_000 }).catch(() => null);
      await page.keyboard.press(key);
      chooser = await opened;
      if (chooser) break;
      await input.focus();
    }
    if (!chooser) throw new Error('the file chooser did not open from the keyboard');
    await chooser.setFiles({ name: 'damaged.pdf', mimeType: 'application/pdf', buffer: damaged });
    const { message } = (await (await failed).json()) as { message: string };
    const failure = upload.getByTestId('upload-failure');
    await expectVisible(failure);
    expect(await failure.innerText()).toBe(`damaged.pdf: ${message}`);
    await expectVisible(zone);
    await a11y.check(at('/education (conversion failed)'));

    // Another file at once, in the same input (the keyboard path was shown above; a second
    // keyboard-opened chooser in a row is not reliably delivered by headless Chromium).
    const pdf = Buffer.from(await buildPdf('My statement'));
    await input.setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expectVisible(upload.getByText(/^statement\.pdf \(/));
    expect(await failure.count()).toBe(0);
    await expect.poll(async () => (await readSavedAnswers(page))[STATEMENT.doc]).toBe('ANSWERED');
    await a11y.check(at('/education (file uploaded)'));
    await a11y.expectNone(`dropzone-${viewport.name}`);
  });
});
