import type { Locator, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatDocumentSize } from '@admissions/answer-view';
import { buildDocx, paragraph } from '../../services/api/test/support/document-fixtures';
import {
  createAccount,
  expectPage,
  expectVisible,
  field,
  logInThroughApi,
  readSavedAnswers,
  uniqueEmail,
  waitForSaved,
} from '../support/applicant';
import type { A11yFindings } from '../support/applicant';
import { useBrowserSuite } from '../support/suite';
import type { RunningServer } from '../support/server';

// Issue 6 in the browser: the personal statement's upload widget on "Your Academics", against the
// real server (local-disk storage, the warm LibreOffice pool, pg-boss jobs on PGlite).
const STATEMENT = {
  doc: 'personal_statement_doc',
  essay: 'personal_statement_essay',
  group: 'personal_statement',
  label: 'Tell us about a challenge you have faced and what you learned from it.',
};
const TABS = { upload: 'Upload a Document', essay: 'Type Your Response' };
// Quoted (docs/) texts verbatim.
const TEXT = {
  converting: 'Uploading and converting your file…',
  deleteConfirmation: 'Are you sure you want to delete your file?',
  blockedTitle: 'File Upload in Progress',
  blockedText: 'Please wait until the file upload has completed.',
};

const FILE_NAME = 'my-statement.docx';
// Built in code: two paragraphs of known text (the API suite checks the PDF's text itself).
const DOCX = buildDocx({
  body:
    paragraph('When our robotics team lost its sponsor, I learned to write grant letters.') +
    paragraph('Three letters later we had a new sponsor, and I had found what I want to study.'),
});
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

// Conversions run on two cores shared with other suites: generous waits, never sleeps.
const WAIT_MS = 60_000;

let server: RunningServer;
let page: Page;
let a11y: A11yFindings;

useBrowserSuite({ name: 'documents', waitMs: WAIT_MS }, (suite) => {
  ({ server, page, a11y } = suite);
});

// ---------------------------------------------------------------- helpers

// The size as the widget writes it (the print view and the PDF write it the same way).
const PRESENT_TEXT = `${FILE_NAME} (${formatDocumentSize(DOCX.length)})`;

async function openEducationPage(name: string): Promise<void> {
  const email = uniqueEmail(name);
  await createAccount(page, server, email);
  await logInThroughApi(page, email);
  await page.goto('/education');
  await expectPage(page, '/education', 'Your Academics');
}

/** The personal statement's upload widget (its wrapper carries the question key). */
const upload = (): Locator => field(page, STATEMENT.doc);
const fileInput = (): Locator => upload().getByLabel(STATEMENT.label);
const tab = (name: string): Locator => page.getByRole('tab', { name, exact: true });

async function chooseFile(): Promise<void> {
  await fileInput().setInputFiles({
    name: FILE_NAME,
    mimeType: DOCX_MIME,
    buffer: Buffer.from(DOCX),
  });
}

async function expectSelectedTab(name: string): Promise<void> {
  await expect.poll(() => tab(name).getAttribute('aria-selected')).toBe('true');
}

/** Error toasts and widget alerts (both role=alert) as the applicant reads them. */
async function expectNoAlerts(when: string): Promise<void> {
  expect(await page.getByRole('alert').allInnerTexts(), `alerts ${when}`).toEqual([]);
}

async function savedTabs(): Promise<Record<string, string>> {
  const response = await page.request.get('/api/tabs');
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Record<string, string>;
}

async function savedDocuments(): Promise<Record<string, { file_name: string; file_size: number }>> {
  const response = await page.request.get('/api/document-answer');
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Record<string, { file_name: string; file_size: number }>;
}

/**
 * Holds the browser's requests that match until released, so a short-lived state (the upload in
 * flight, a conversion still pending) stays on screen for as long as the test needs it.
 */
async function holdRequests(matches: (request: Request) => boolean) {
  const held: Route[] = [];
  let holding = true;
  let arrived: (() => void) | undefined;
  const handler = async (route: Route) => {
    if (holding && matches(route.request())) {
      held.push(route);
      arrived?.();
    } else {
      await route.fallback();
    }
  };
  await page.route('**/api/**', handler);
  return {
    /** Resolves once at least one request is being held. */
    waitForHeld: async () => {
      if (held.length === 0) await new Promise<void>((resolve) => (arrived = resolve));
    },
    release: async () => {
      holding = false;
      await Promise.all(held.splice(0).map((route) => route.fallback()));
      await page.unroute('**/api/**', handler);
    },
  };
}

const conversionPath = `/api/pdf/document-answer/${STATEMENT.doc}`;
const isConversion = (method: string) => (request: Request) =>
  request.method() === method && new URL(request.url()).pathname === conversionPath;

// ---------------------------------------------------------------- tests

describe('the document upload on the education page', () => {
  it('uploads a docx, shows it converting, then its name and size, and deletes it', async () => {
    await openEducationPage('upload');
    await expectSelectedTab(TABS.upload);
    await expectVisible(fileInput());
    await a11y.check('/education (no file)');

    // Hold the start of the conversion, then its status polls: "converting" stays on screen.
    const start = await holdRequests(isConversion('POST'));
    const polls = await holdRequests(isConversion('GET'));
    await chooseFile();
    const converting = upload().getByRole('status');
    await expectVisible(converting);
    expect(await converting.innerText()).toContain(TEXT.converting);
    expect(await fileInput().count()).toBe(0);
    await a11y.check('/education (file uploading)');
    await start.release();
    // A status poll goes out once the started conversion (UNPROCESSED) is known to the page.
    await polls.waitForHeld();
    await expectVisible(converting);

    // docs/behaviour.md: no switching tabs while the file converts.
    await tab(TABS.essay).click();
    const blocked = page.getByRole('dialog', { name: TEXT.blockedTitle });
    await expectVisible(blocked);
    await expectVisible(blocked.getByText(TEXT.blockedText));
    await a11y.check('/education (tab switch refused)');
    await blocked.getByRole('button', { name: 'OK' }).click();
    await blocked.waitFor({ state: 'hidden' });
    await expectSelectedTab(TABS.upload);
    await expectVisible(converting);

    // Let the conversion be reported: the widget polls until COMPLETED, then shows the file.
    await polls.release();
    const present = upload().getByText(PRESENT_TEXT, { exact: true });
    await expectVisible(present);
    await converting.waitFor({ state: 'detached' });
    await a11y.check('/education (file present)');
    await expect.poll(async () => (await readSavedAnswers(page))[STATEMENT.doc]).toBe('ANSWERED');
    expect((await savedDocuments())[STATEMENT.doc]).toEqual({
      file_name: FILE_NAME,
      file_size: DOCX.length,
    });

    // The file is still there after a reload.
    await page.reload();
    await expectPage(page, '/education', 'Your Academics');
    await expectVisible(upload().getByText(PRESENT_TEXT, { exact: true }));

    // Delete asks first; Cancel keeps the file.
    const deleteDialog = page.getByRole('dialog', { name: 'Delete file' });
    await upload().getByRole('button', { name: 'Delete' }).click();
    await expectVisible(deleteDialog.getByText(TEXT.deleteConfirmation, { exact: true }));
    await a11y.check('/education (delete confirmation)');
    await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
    await deleteDialog.waitFor({ state: 'hidden' });
    await expectVisible(upload().getByText(PRESENT_TEXT, { exact: true }));

    await upload().getByRole('button', { name: 'Delete' }).click();
    await deleteDialog.getByRole('button', { name: 'Delete' }).click();
    await deleteDialog.waitFor({ state: 'hidden' });
    // Either the empty upload comes back or an error toast says why not.
    await expectVisible(fileInput().or(page.getByRole('alert')).first());
    await expectNoAlerts('after deleting the file');
    await expectVisible(fileInput());
    expect(await upload().getByText(PRESENT_TEXT).count()).toBe(0);
    await a11y.check('/education (file deleted)');
    await expect.poll(async () => (await readSavedAnswers(page))[STATEMENT.doc] ?? '').toBe('');
    expect((await savedDocuments())[STATEMENT.doc]).toBeUndefined();

    // With nothing converting, the essay tab opens and takes a typed statement.
    await tab(TABS.essay).click();
    await expectSelectedTab(TABS.essay);
    const essay = page.getByRole('textbox', { name: STATEMENT.label });
    await expectVisible(essay);
    expect(await fileInput().count()).toBe(0);
    await essay.fill('I learned to ask for help early.');
    await essay.blur();
    await waitForSaved(page);
    await a11y.check('/education (essay tab)');
    expect(await savedTabs()).toMatchObject({ [STATEMENT.group]: 'essay' });
    expect(await readSavedAnswers(page)).toMatchObject({
      [STATEMENT.essay]: 'I learned to ask for help early.',
    });
    await a11y.expectNone('documents-upload-delete');
  });

  it('deletes the uploaded file when the applicant confirms the switch to the essay tab', async () => {
    await openEducationPage('upload-switch');
    await chooseFile();
    await expectVisible(upload().getByText(PRESENT_TEXT, { exact: true }));

    // docs/behaviour.md: switching deletes any uploaded file of the tab being left, so it asks first.
    await tab(TABS.essay).click();
    const confirm = page.getByRole('dialog', { name: 'Switch tabs?' });
    await expectVisible(
      confirm.getByText('Switching will delete your uploaded file. Continue?', { exact: true }),
    );
    await a11y.check('/education (switch confirmation)');
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await expectSelectedTab(TABS.essay);
    await expectVisible(
      page.getByRole('status').filter({ hasText: 'Your uploaded file was deleted.' }),
    );
    await expectVisible(page.getByRole('textbox', { name: STATEMENT.label }));
    await expect
      .poll(async () => Object.keys(await savedDocuments()).includes(STATEMENT.doc))
      .toBe(false);
    expect((await readSavedAnswers(page))[STATEMENT.doc] ?? '').toBe('');
    expect(await savedTabs()).toMatchObject({ [STATEMENT.group]: 'essay' });

    await expectNoAlerts('after switching to the essay tab');

    await tab(TABS.upload).click();
    await expectSelectedTab(TABS.upload);
    // The widget shows either the empty upload or (wrongly) the file the switch deleted.
    await expectVisible(fileInput().or(upload().getByText(FILE_NAME)).first());
    await expect
      .poll(() => upload().getByText(FILE_NAME).count(), {
        message: 'the deleted file is still shown on the upload tab',
        timeout: 10_000,
      })
      .toBe(0);
    await expectVisible(fileInput());
    await a11y.check('/education (back on the upload tab)');
    await a11y.expectNone('documents-tab-switch');
  });
});
