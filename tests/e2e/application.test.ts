import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPLETE_ANSWERS } from '../../packages/form/test/fixtures/complete-answers';
import { findBlockingViolations } from '../support/a11y';
import { launchBrowser } from '../support/browser';
import { ARTIFACTS_DIR, startServer, type RunningServer } from '../support/server';

// What the applicant reads; Quoted (docs/) texts verbatim.
const TEXT = {
  submitted: 'Your application was successfully submitted.',
  idleLogout: 'You have been automatically logged out due to inactivity.',
  idleTitle: 'Still working?',
  summaryTitle: "We're missing some information!",
  returning: "We're glad to see you again",
  firstLogin: "You're in! Now, let's get started...",
  anonymous: 'Welcome to your application',
};

const PASSWORD = 'Cobalt-Lantern-River-58';
const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');
const FAILURES_DIR = path.join(ARTIFACTS_DIR, 'failures');
const WAIT_MS = 20_000;
const WIDTHS = [375, 800, 1280] as const;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageErrors: string[];
let consoleErrors: string[];
let a11yFindings: string[];

beforeAll(async () => {
  // Several accounts are created from one address in a minute; the limit is not under test here.
  server = await startServer({ PUBLIC_RATE_LIMIT: '1000' }, { name: 'application' });
  browser = await launchBrowser();
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

beforeEach(async () => {
  context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(WAIT_MS);
  page = await context.newPage();
  pageErrors = [];
  consoleErrors = [];
  a11yFindings = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    await mkdir(FAILURES_DIR, { recursive: true });
    const name = task.name.replace(/\W+/g, '-').toLowerCase();
    await page.screenshot({ path: path.join(FAILURES_DIR, `${name}.png`), fullPage: true });
    console.warn(`Failure screenshot: ${path.join(FAILURES_DIR, `${name}.png`)} at ${page.url()}`);
    console.warn(`Server log: ${server.logFile}`);
    console.warn(`Console errors:\n${consoleErrors.join('\n')}`);
    const refused = server.output
      .join('')
      .split('\n')
      .filter((line) => /"statusCode":[45]\d\d/.test(line));
    console.warn(`Server responses >= 400:\n${refused.slice(-20).join('\n')}`);
  }
  await context.close();
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

// ---------------------------------------------------------------- helpers

function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.edu`;
}

async function expectPath(pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
}

async function expectPage(pathname: string, title: string): Promise<void> {
  await expectPath(pathname);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

async function expectVisible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}

/** Signs up and confirms through the API (the accounts suite covers the cards themselves). */
async function createAccount(email: string): Promise<void> {
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
async function logInThroughApi(email: string): Promise<void> {
  const login = await page.request.post('/public/login', {
    data: { username: email, password: PASSWORD },
  });
  expect(login.ok(), await login.text()).toBe(true);
}

async function logInThroughUi(email: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('heading', { level: 1, name: 'Log In' }).waitFor();
  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
}

async function saveThroughApi(answers: Record<string, string>): Promise<void> {
  const response = await page.request.put('/api/answer', { data: answers });
  expect(response.ok(), await response.text()).toBe(true);
}

async function readSavedAnswers(): Promise<Record<string, string>> {
  const response = await page.request.get('/api/profile');
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { answer: Record<string, string> }).answer;
}

function without(
  answers: Readonly<Record<string, string>>,
  keys: readonly string[],
): Record<string, string> {
  const drop = new Set(keys.flatMap((key) => [key, `${key}_desc`]));
  return Object.fromEntries(Object.entries(answers).filter(([key]) => !drop.has(key)));
}

/** Inputs carry their question key as id, the same id the summary links point at. */
const field = (key: string) => page.locator(`#${key}`);

async function chooseRadio(key: string, label: string): Promise<void> {
  const group = page.getByRole('radiogroup').filter({ has: page.locator(`#${key}`) });
  await group.getByRole('radio', { name: label, exact: true }).check();
}

async function waitForSaved(): Promise<void> {
  await expect
    .poll(() => page.getByTestId('save-status').first().getAttribute('data-state'))
    .toBe('saved');
}

async function checkAccessibility(screen: string): Promise<void> {
  for (const finding of await findBlockingViolations(page)) {
    a11yFindings.push(`${screen}: ${finding}`);
  }
}

async function expectNoAccessibilityFindings(name: string): Promise<void> {
  const report = path.join(ARTIFACTS_DIR, `a11y-violations-application-${name}.txt`);
  await rm(report, { force: true });
  if (a11yFindings.length > 0) {
    await writeFile(report, a11yFindings.join('\n\n'));
    console.warn(`${a11yFindings.join('\n\n')}\n(also in ${report})`);
  }
  expect(a11yFindings, 'serious or critical axe-core violations').toEqual([]);
}

/** The page as it is, at the three widths of the brief, then back to the desktop width. */
async function takeScreenshots(name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({
      path: path.join(SCREENSHOTS_DIR, `application-${name}-${width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function saveAndContinue(nextPath: string, nextTitle: string): Promise<void> {
  await page.getByRole('button', { name: 'Save and Continue' }).click();
  await expectPage(nextPath, nextTitle);
}

async function submitAndExpectCompletion(): Promise<void> {
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expectPath('/completion');
  await expectVisible(page.getByText(TEXT.submitted));
}

/** Final steps, keyboard-style answers through the UI. */
async function answerFinalSteps(): Promise<void> {
  await chooseRadio('conviction', 'No');
  await chooseRadio('suspended', 'No');
  await chooseRadio('counselor_waiver_request', 'Yes');
  await field('legal_agree').check();
}

/** The same answers with the keyboard alone: arrows choose within a group, Tab moves on. */
async function answerFinalStepsWithKeyboard(): Promise<void> {
  await field('conviction').focus();
  await page.keyboard.press('ArrowRight'); // conviction: No
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight'); // suspended: No
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space'); // counselor waiver: Yes
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space'); // certification ticked
  expect(await field('legal_agree').isChecked()).toBe(true);
  expect(await page.locator('#conviction').isChecked()).toBe(false);
}

// Typed through the UI in the applicant tests; everything else is prefilled through the API.
const TYPED_ABOUT = [
  'first_name',
  'last_name',
  'preferred_name',
  'phone_home',
  'birth_date',
  'gender',
  'citizenship_type',
  'ssn',
];
const TYPED_EDUCATION = ['entry_term', 'living_plans'];
const TYPED_FINAL = ['conviction', 'suspended', 'counselor_waiver_request', 'legal_agree'];

// Uploads are another issue: the prefilled statements use the essay tab.
const NO_UPLOADS = {
  special_programs: 'NONE',
  special_programs_desc: 'I am not applying to a special program',
};
const DOC_KEYS = Object.keys(COMPLETE_ANSWERS).filter((key) => key.endsWith('_doc'));

// ---------------------------------------------------------------- tests

describe('the application in headless Chromium against the real server', () => {
  it('keeps an anonymous visitor’s answers through sign-up, confirmation and login', async () => {
    const email = uniqueEmail('grace');
    await page.goto('/about');
    await expectPage('/about', 'About You');
    await expectVisible(page.getByText(TEXT.anonymous));
    await checkAccessibility('/about (anonymous)');
    await takeScreenshots('about-anonymous');

    await field('first_name').fill('Grace');
    await field('last_name').fill('Hopper');
    await page.getByRole('button', { name: 'Save and Continue' }).click();

    await expectPage('/signup', 'Sign Up');
    const carried = await page.evaluate(
      () => (window.history.state as { usr?: { answers?: Record<string, string> } }).usr?.answers,
    );
    expect(carried).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });

    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectPage('/confirm', 'Confirm Your Account');
    const mail = await server.waitForMail({ to: email, subject: /confirmation code/i });
    const code = /Your confirmation code is (\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await page.getByRole('textbox', { name: 'Confirmation code' }).fill(code);
    await page.getByRole('button', { name: 'Confirm Account' }).click();

    await expectPage('/login', 'Log In');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();

    await expectPage('/about', 'About You');
    await expect.poll(() => field('first_name').inputValue()).toBe('Grace');
    expect(await field('last_name').inputValue()).toBe('Hopper');
    await expectVisible(page.getByText(TEXT.firstLogin));
    expect(await readSavedAnswers()).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });
    await expectNoAccessibilityFindings('anonymous');
  });

  it('takes a U.S. citizen through all three pages to /completion', async () => {
    const email = uniqueEmail('ana');
    await createAccount(email);
    await logInThroughApi(email);
    await saveThroughApi({
      ...without(COMPLETE_ANSWERS, [
        ...TYPED_ABOUT,
        ...TYPED_EDUCATION,
        ...TYPED_FINAL,
        ...DOC_KEYS,
      ]),
      ...NO_UPLOADS,
    });

    await page.goto('/about');
    await expectPage('/about', 'About You');
    await field('first_name').fill('Ana');
    await field('last_name').fill('Martínez');
    await field('preferred_name').fill('Ana');
    // As-you-type formatting: digits become (NXX) NXX-XXXX and NNN-NN-NNNN.
    await field('phone_home').pressSequentially('2175550100');
    expect(await field('phone_home').inputValue()).toBe('(217) 555-0100');
    await field('birth_date').fill('2008-03-02');
    await chooseRadio('gender', 'Female');
    await chooseRadio('citizenship_type', 'U.S. Citizen');
    await field('ssn').pressSequentially('123456789');
    expect(await field('ssn').inputValue()).toBe('123-45-6789');
    await field('ssn').blur();
    await waitForSaved();
    await checkAccessibility('/about');
    await takeScreenshots('about');

    await saveAndContinue('/education', 'Your Academics');
    await field('entry_term').selectOption('2027FA');
    await chooseRadio('living_plans', 'On campus');
    await waitForSaved();
    await checkAccessibility('/education');
    await takeScreenshots('education');

    await saveAndContinue('/final-steps', 'Final Steps');
    await answerFinalSteps();
    await waitForSaved();
    await checkAccessibility('/final-steps');
    await takeScreenshots('final-steps');

    await submitAndExpectCompletion();
    await checkAccessibility('/completion');
    await takeScreenshots('completion');
    const saved = await readSavedAnswers();
    expect(saved).toMatchObject({ first_name: 'Ana', ssn: '123-45-6789', legal_agree: 'true' });
    await expectNoAccessibilityFindings('us-citizen');
  });

  it('takes an international applicant (citizen type 4, TOEFL) to /completion', async () => {
    const email = uniqueEmail('kenji');
    await createAccount(email);
    await logInThroughApi(email);
    const international = {
      ...without(COMPLETE_ANSWERS, [
        ...TYPED_ABOUT,
        ...TYPED_EDUCATION,
        ...TYPED_FINAL,
        ...DOC_KEYS,
        'aid_eligible',
      ]),
      ...NO_UPLOADS,
      first_name: 'Kenji',
      last_name: 'Sato',
      gender: 'M',
      gender_desc: 'Male',
      phone_home: '',
      phone_mobile: '',
      optin_sms_ind: 'false',
      phone_international: '+81 3 1234 5678',
      birth_date: '2008-05-20',
    };
    await saveThroughApi(international);

    await page.goto('/about');
    await expectPage('/about', 'About You');
    await chooseRadio('citizenship_type', 'International Student (not a U.S. citizen)');
    // The international questions appear; SSN does not.
    await field('citizenship').selectOption('JPN');
    await field('birth_city').fill('Osaka');
    await field('address_home_country').fill('1-2-3 Umeda, Kita-ku, Osaka 530-0001, Japan');
    expect(await field('ssn').count()).toBe(0);
    await field('address_home_country').blur();
    await waitForSaved();

    await saveAndContinue('/education', 'Your Academics');
    await field('entry_term').selectOption('2027FA');
    await chooseRadio('living_plans', 'On campus');
    // docs/behaviour.md: the international tests show for test_taken_ind Y and citizen type 4.
    await expectVisible(page.getByRole('heading', { name: 'TOEFL', exact: true }));
    await chooseRadio('toefl_taken', 'Yes');
    await field('toefl_score').fill('104');
    await chooseRadio('toefl_taken_again', 'No');
    await field('toefl_score').blur();
    await waitForSaved();
    await checkAccessibility('/education (international)');

    await saveAndContinue('/final-steps', 'Final Steps');
    await answerFinalStepsWithKeyboard();
    await waitForSaved();
    // Keyboard only: Tab past Save to Submit, then Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Submit');
    await page.keyboard.press('Enter');
    await expectPath('/completion');
    await expectVisible(page.getByText(TEXT.submitted));
    const saved = await readSavedAnswers();
    expect(saved).toMatchObject({ citizenship_type: '4', toefl_taken: 'Y', toefl_score: '104' });
    expect(saved.ssn ?? '').toBe('');
    await expectNoAccessibilityFindings('international');
  });

  it('welcomes a returning applicant by preferred name and resumes the last page', async () => {
    const email = uniqueEmail('ruth');
    await createAccount(email);
    await logInThroughApi(email);
    await saveThroughApi({ first_name: 'Ruth', preferred_name: 'Ruthie' });
    const lastPage = await page.request.put('/api/last-page', {
      data: { last_page: '/education' },
    });
    expect(lastPage.ok()).toBe(true);
    await page.request.get('/api/logout');
    await context.clearCookies();

    await logInThroughUi(email);
    await expectPage('/education', 'Your Academics');
    await expectVisible(page.getByText(`${TEXT.returning}, Ruthie!`));
    await checkAccessibility('/education (returning)');
    // Changing page hides the banner (docs/product.md).
    await page.getByRole('link', { name: /Final Steps/ }).click();
    await expectPage('/final-steps', 'Final Steps');
    await expect.poll(() => page.getByTestId('welcome-banner').count()).toBe(0);
    await expectNoAccessibilityFindings('returning');
  });

  it('shows the missing-information summary with working links and red fields', async () => {
    const email = uniqueEmail('lin');
    await createAccount(email);
    await logInThroughApi(email);
    await saveThroughApi({ first_name: 'Lin' });

    await page.goto('/final-steps');
    await expectPage('/final-steps', 'Final Steps');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const summary = page.getByTestId('missing-summary');
    await expectVisible(summary);
    await expectVisible(summary.getByText(TEXT.summaryTitle));
    await expect.poll(() => summary.evaluate((el) => el === document.activeElement)).toBe(true);
    // The questions on this page are red at once.
    await expect.poll(() => field('legal_agree').getAttribute('aria-invalid')).toBe('true');
    await checkAccessibility('/final-steps (validating)');
    await takeScreenshots('final-steps-validating');

    const link = summary.getByRole('link', { name: 'Last/Family Name' });
    expect(await link.getAttribute('href')).toBe('/about#last_name');
    await link.click();
    await expectPage('/about', 'About You');
    expect(new URL(page.url()).hash).toBe('#last_name');
    await expect.poll(() => field('last_name').getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => field('last_name').evaluate((el) => el === document.activeElement))
      .toBe(true);
    // Red: the field's border is the error colour (clearly more red than green or blue).
    const border = await field('last_name').evaluate((el) => getComputedStyle(el).borderTopColor);
    const [red = 0, green = 0, blue = 0] = (border.match(/\d+/g) ?? []).map(Number);
    expect(red - Math.max(green, blue), border).toBeGreaterThan(80);
    const describedBy = (await field('last_name').getAttribute('aria-describedby')) ?? '';
    const errorText = await page.locator(`[id="${describedBy.split(' ').pop()}"]`).innerText();
    expect(errorText).toContain('Last/Family Name');

    // Live validation: typing the answer removes the error and its summary entry.
    await field('last_name').fill('Wei');
    await expect.poll(() => field('last_name').getAttribute('aria-invalid')).not.toBe('true');
    await expect
      .poll(() => summary.getByRole('link', { name: 'Last/Family Name' }).count())
      .toBe(0);
    await checkAccessibility('/about (validating)');
    await expectNoAccessibilityFindings('validating');
  });

  it('warns before the idle time-out, saves what was typed and logs out with its message', async () => {
    const email = uniqueEmail('idle');
    await createAccount(email);
    await logInThroughApi(email);
    // A controlled clock: the page's timers and Date run only when the test moves them.
    await page.clock.install();
    await page.goto('/about');
    await expectPage('/about', 'About You');
    // The whole page first: the sections' code arrives after the title has painted, and with the
    // clock jumped while they were still rendering the warning never came (the idle watcher, a
    // lazy component, had apparently not mounted yet and started counting after the jump).
    await page.getByRole('button', { name: 'Save and Continue' }).waitFor();
    // And the idle watcher (its own lazy chunk, loaded once the session is known): nothing is
    // downloading any more, so it has mounted and counts from the typing below, not from after
    // the jump (seen once in CI: no warning at 14:01).
    await page.waitForLoadState('networkidle');
    await field('preferred_name').fill('Sleepy');

    await page.clock.fastForward('14:01');
    const dialog = page.getByRole('dialog', { name: TEXT.idleTitle });
    await expectVisible(dialog);
    await checkAccessibility('idle dialog');
    await page.clock.fastForward('01:00');

    await expectPage('/login', 'Log In');
    await expectVisible(page.getByText(TEXT.idleLogout));
    await logInThroughApi(email);
    expect((await readSavedAnswers()).preferred_name).toBe('Sleepy');
    await expectNoAccessibilityFindings('idle');
  });
});
