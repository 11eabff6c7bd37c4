import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COMPLETE_ANSWERS } from '../../packages/form/test/fixtures/complete-answers';
import { buildDocx, buildPdf, paragraph } from '../../services/api/test/support/document-fixtures';
import {
  A11yFindings,
  createAccount,
  expectPage,
  expectVisible,
  logInThroughApi,
  openPage,
  saveThroughApi,
  submitThroughApi,
  uniqueEmail,
  without,
} from '../support/applicant';
import { isPdf, readOutlineTitles } from '../support/pdf';
import type { RunningServer } from '../support/server';
import { signInNewStaffMember } from '../support/staff';
import { useBrowserSuite, type BrowserSuite } from '../support/suite';

// Issue #30 in the browser, after the submit button: an applicant answers the FERPA question on
// Final Steps and invites a teacher; the teacher opens the e-mailed link (no account), uploads a
// Word letter, and the applicant's checklist shows it received. A processor asks for an
// "Official transcript"; the applicant uploads a PDF from /completion and sees it received. The
// staff PDF then carries a bookmark for each. On a desktop and on a 375 px phone, with axe on the
// checklist, the recommender's page and the staff panel.

// Conversions (LibreOffice, the sandbox) run on two cores shared with the server: generous waits.
const WAIT_MS = 90_000;
const STAFF_AXE = { includeModerate: true };
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
// Built in code (never a file from elsewhere): a short letter and a one-page transcript.
const LETTER = buildDocx({
  body:
    paragraph('I taught Ada mathematics for two years.') +
    paragraph('She is the most careful reasoner I have met.'),
});
const DOC_KEYS = Object.keys(COMPLETE_ANSWERS).filter((key) => key.endsWith('_doc'));
// Quoted (docs/checklist.md, packages/api-contract CHECKLIST_MESSAGES) texts verbatim.
const TEXT = {
  ferpaUnanswered:
    'Please answer the FERPA question under "Recommendation Waiver" on Final Steps before you invite a recommender.',
  ferpaWaived:
    'Ada Lovelace has waived the right to read this letter. Your letter is confidential: Ada Lovelace will not see it.',
  letterReceived: /Your letter has been received/,
};

let suite: BrowserSuite;
let page: Page;
let server: RunningServer;
let a11y: A11yFindings;

useBrowserSuite({ name: 'checklist', waitMs: WAIT_MS }, (bound) => {
  suite = bound;
  ({ page, server, a11y } = bound);
});

/** Nothing wider than the window: on a phone the checklist wraps, it does not scroll sideways. */
async function expectNoSidewaysScroll(target: Page, where: string): Promise<void> {
  const overflow = await target.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${where} is ${overflow}px wider than the window`).toBeLessThanOrEqual(0);
}

const checklistOf = (target: Page): Locator => target.getByTestId('applicant-checklist');
const itemOf = (scope: Page | Locator, id: string): Locator =>
  scope.locator(`[data-testid="checklist-item"][data-item="${id}"]`);

async function expectStatus(item: Locator, status: 'awaiting' | 'received' | 'waived') {
  await expect.poll(() => item.getAttribute('data-status'), { timeout: WAIT_MS }).toBe(status);
}

/** The link in the recommender's invitation, as the outbox holds it. */
async function readInvitationLink(to: string): Promise<string> {
  const mail = await server.waitForMail({
    to,
    subject: /asks you for a recommendation/,
    timeoutMs: WAIT_MS,
  });
  const link = /https?:\/\/\S+\/recommend\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  return link!;
}

describe.each([
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 375, height: 800 }],
])('the checklist after the submit button (%s)', (device, viewport) => {
  it('takes a teacher’s Word letter and an office’s request through to the staff PDF', async () => {
    await page.setViewportSize(viewport);
    const applicant = uniqueEmail(`checklist-${device}`);
    const teacher = uniqueEmail(`teacher-${device}`);
    const teacherName = device === 'desktop' ? 'Grace Hopper' : 'Katherine Johnson';

    // ---- The applicant: complete answers but the FERPA question, then Final Steps.
    await createAccount(page, server, applicant);
    await logInThroughApi(page, applicant);
    await saveThroughApi(page, {
      ...without(COMPLETE_ANSWERS, [...DOC_KEYS, 'counselor_waiver_request']),
      special_programs: 'NONE',
      special_programs_desc: 'I am not applying to a special program',
      first_name: 'Ada',
      middle_name: '',
      last_name: 'Lovelace',
    });
    await page.goto('/final-steps');
    await expectPage(page, '/final-steps', 'Final Steps');
    const checklist = checklistOf(page);
    await expectVisible(checklist.getByRole('heading', { name: 'Recommendations and checklist' }));
    await expectVisible(checklist.getByTestId('ferpa-unanswered'));
    expect(await checklist.getByTestId('ferpa-unanswered').innerText()).toContain(
      TEXT.ferpaUnanswered,
    );
    expect(await checklist.getByRole('button', { name: 'Send invitation' }).isDisabled()).toBe(
      true,
    );
    await expectNoSidewaysScroll(page, '/final-steps');
    await a11y.check(`/final-steps checklist, FERPA unanswered (${device})`);

    // The FERPA answer, saved, travels with the invitation: the checklist says which.
    await page
      .getByRole('radiogroup', { name: /waive your right under FERPA/ })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await expectVisible(checklist.getByTestId('ferpa-answer'));
    expect(await checklist.getByTestId('ferpa-answer').innerText()).toContain(
      'you waived your right to read the letter',
    );

    const form = checklist.getByTestId('add-recommender');
    await form.getByLabel('Kind of recommender').selectOption('teacher');
    await form.getByLabel('Name').fill(teacherName);
    await form.getByLabel('E-mail address').fill(teacher);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expectVisible(
      form.getByText(`We e-mailed ${teacherName} a link to send their letter.`, { exact: false }),
    );
    const teacherItem = itemOf(checklist, 'teacher-1');
    await expectVisible(teacherItem.getByTestId('recommender').getByText(teacherName));
    await expectStatus(teacherItem, 'awaiting');
    await a11y.check(`/final-steps checklist, teacher invited (${device})`);

    await submitThroughApi(page);
    await page.goto('/completion');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Application submitted' }));
    await expectVisible(checklistOf(page).getByRole('heading', { name: 'Your checklist' }));
    await expectStatus(itemOf(page, 'application'), 'received');

    // ---- The teacher: the e-mailed link, in a browser of their own (no account, no cookie).
    const link = await readInvitationLink(teacher);
    const recommender = await openPage(suite.browser, server, WAIT_MS);
    try {
      const letterPage = recommender.page;
      await letterPage.setViewportSize(viewport);
      await letterPage.goto(link);
      await expectVisible(
        letterPage.getByRole('heading', { level: 1, name: 'Recommendation for Ada Lovelace' }),
      );
      expect(await letterPage.getByTestId('recommendation-ferpa').innerText()).toBe(
        TEXT.ferpaWaived,
      );
      await expectNoSidewaysScroll(letterPage, 'the recommender’s page');
      const recommenderAxe = new A11yFindings(letterPage);
      await recommenderAxe.check(`/recommend/:token (${device})`);

      const letterForm = letterPage.getByRole('form', { name: 'Your recommendation' });
      await letterForm.getByLabel('How many years have you known the applicant?').fill('2');
      await letterForm.getByLabel('In what capacity?').selectOption('Teacher');
      await letterForm.getByLabel('Letter file').setInputFiles({
        name: 'letter-for-ada.docx',
        mimeType: DOCX_MIME,
        buffer: Buffer.from(LETTER),
      });
      await expectVisible(letterForm.getByText('Chosen: letter-for-ada.docx'));
      await recommenderAxe.check(`/recommend/:token with a file (${device})`);
      await letterForm.getByRole('button', { name: 'Submit recommendation' }).click();
      // Converted on the server, polled by the page until it is received.
      const received = letterPage.getByTestId('recommendation-received');
      await received.waitFor({ timeout: WAIT_MS });
      expect(await received.innerText()).toMatch(TEXT.letterReceived);
      await recommenderAxe.check(`/recommend/:token received (${device})`);
      await recommenderAxe.expectNone(`checklist-recommender-${device}`);
      expect(recommender.pageErrors, 'uncaught errors on the recommender’s page').toEqual([]);
    } finally {
      await recommender.context.close();
    }

    // ---- The applicant's checklist shows the letter received (never the letter itself).
    await page.reload();
    await expectStatus(itemOf(page, 'teacher-1'), 'received');
    expect(await itemOf(page, 'teacher-1').getByTestId('recommender-status').innerText()).toMatch(
      /^Letter received /,
    );
    expect(await page.getByText('She is the most careful reasoner').count()).toBe(0);
    await expectNoSidewaysScroll(page, '/completion');
    await a11y.check(`/completion checklist, letter received (${device})`);

    // ---- A processor asks for the official transcript.
    const office = await openPage(suite.browser, server, WAIT_MS);
    try {
      const staffPage = office.page;
      await staffPage.setViewportSize(viewport);
      const officeAxe = new A11yFindings(staffPage);
      await signInNewStaffMember(staffPage, server, 'processor');
      await staffPage.getByLabel('Search by name or e-mail').fill(applicant);
      const row = staffPage.getByRole('row').filter({ hasText: applicant });
      await expectVisible(row.getByRole('link', { name: 'Ada Lovelace' }));
      const progress = await row.getByTestId('checklist-progress').innerText();
      expect(progress).toMatch(/^\d+ of \d+$/);
      await row.getByRole('link', { name: 'Ada Lovelace' }).click();
      await expectVisible(
        staffPage.getByRole('heading', { level: 1, name: 'Application of Ada Lovelace' }),
      );
      const panel = staffPage.getByRole('region', { name: 'Checklist' });
      await expectStatus(itemOf(panel, 'teacher-1'), 'received');
      await expectNoSidewaysScroll(staffPage, '/staff/applications/:id');
      await officeAxe.check(`staff checklist panel (${device})`, STAFF_AXE);

      const request = panel.getByRole('form', { name: 'Request an item' });
      await request.getByLabel('Item').fill('Official transcript');
      await request
        .getByLabel('Message to the applicant')
        .fill('Please upload your official transcript, with your final grades.');
      await request.getByRole('button', { name: 'Send request' }).click();
      await expectVisible(
        panel.getByText('The applicant was asked for Official transcript by e-mail.'),
      );
      const requested = panel
        .getByTestId('checklist-item')
        .filter({ hasText: 'Official transcript' });
      await expectStatus(requested, 'awaiting');
      await officeAxe.check(`staff checklist panel, item requested (${device})`, STAFF_AXE);

      // ---- The applicant: the e-mail, then the upload from /completion.
      const mail = await server.waitForMail({
        to: applicant,
        subject: /please send your Official transcript/,
        timeoutMs: WAIT_MS,
      });
      expect(mail.text).toContain('/completion');
      await page.reload();
      const transcript = checklistOf(page)
        .getByTestId('checklist-item')
        .filter({ hasText: 'Official transcript' });
      await expectStatus(transcript, 'awaiting');
      await expectVisible(transcript.getByText('Message from the admissions office'));
      await expectVisible(transcript.getByText(/with your final grades/));
      await a11y.check(`/completion checklist, transcript requested (${device})`);
      await transcript.getByLabel('Upload Official transcript').setInputFiles({
        name: 'transcript.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await buildPdf('Official transcript of Ada Lovelace')),
      });
      await expectStatus(transcript, 'received');
      await expectVisible(
        page.getByTestId('checklist-announcement').getByText('Official transcript: received.'),
      );
      await expectNoSidewaysScroll(page, '/completion');
      await a11y.check(`/completion checklist, transcript received (${device})`);

      // ---- The office sees both, and the staff PDF bookmarks each.
      await staffPage.reload();
      await expectStatus(
        staffPage.getByTestId('checklist-item').filter({ hasText: 'Official transcript' }),
        'received',
      );
      await officeAxe.check(`staff checklist panel, all received (${device})`, STAFF_AXE);
      const id = new URL(staffPage.url()).pathname.split('/').pop()!;
      const response = await staffPage.request.get(`/staff/api/applications/${id}/pdf`);
      expect(response.status(), await response.text().catch(() => '')).toBe(200);
      const pdf = new Uint8Array(await response.body());
      expect(isPdf(pdf)).toBe(true);
      // Soft: what the pages showed is checked (axe below) even when the PDF lacks a section.
      expect
        .soft(readOutlineTitles(pdf), 'the staff PDF’s bookmarks')
        .toEqual(
          expect.arrayContaining([`Recommendation — ${teacherName}`, 'Official transcript']),
        );
      await officeAxe.expectNone(`checklist-staff-${device}`);
      expect(office.pageErrors, 'uncaught errors in the staff area').toEqual([]);
    } finally {
      await office.context.close();
    }
    await a11y.expectNone(`checklist-applicant-${device}`);
  });
});
