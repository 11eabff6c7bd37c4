import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWER_FIXTURES,
  type AnswerFixture,
  type AnswerFixtureName,
} from '@admissions/answer-view/fixtures';
import { buildPdf } from '../../services/api/test/support/document-fixtures';
import {
  createAccount,
  logInThroughApi,
  openPage,
  recordFailure,
  saveLayoutThroughApi,
  saveThroughApi,
  uniqueEmail,
  uploadDocumentThroughApi,
} from '../support/applicant';
import { launchBrowser } from '../support/browser';
import { extractPdfText, extractStructureRows, isPdf } from '../support/pdf';
import { startServer, type RunningServer } from '../support/server';
import { mintServiceToken } from '../support/staff';

// Issue 7's "done when": the web print view (rendered in Chromium) and the PDF (through
// pdftotext) show the same label/value pairs in the same order, and a hidden answer saved in the
// raw answers appears in neither; issue #32's: the PDF's structure tree (pdfinfo -struct-text)
// holds the same rows in the same order, question as TH and answer as TD. One view model feeds both; this checks the two renderers.
const PARITY_FIXTURES: readonly AnswerFixtureName[] = [
  'us-citizen',
  'international',
  'add-another',
  'essay-tab',
];
const WAIT_MS = 60_000;

interface Pair {
  label: string;
  value: string;
  /** The view model's row kind: `check` rows read "[X] label" on screen and on paper. */
  kind: string;
}

let server: RunningServer;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page | undefined;
let pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServer({ PUBLIC_RATE_LIMIT: '1000' }, { name: 'parity' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && page)
    await recordFailure(page, server, `parity-${task.name}`);
  await context?.close();
  context = undefined;
  page = undefined;
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

/**
 * The fixture saved the way the SPA saves it: answers, add-another counts, tab choices, and a real
 * PDF uploaded and converted for each document (the fixture's `*_doc` answers are set by that).
 */
async function seedFixture(seedPage: Page, fixture: AnswerFixture): Promise<string> {
  const email = uniqueEmail(`parity-${fixture.name}`);
  await createAccount(seedPage, server, email);
  await logInThroughApi(seedPage, email);
  const documentKeys = new Set(Object.keys(fixture.documents));
  const answers = Object.fromEntries(
    Object.entries(fixture.answers).filter(([key]) => !documentKeys.has(key)),
  );
  // Tabs first: choosing a tab clears the other tab's answer and deletes its file.
  await saveLayoutThroughApi(seedPage, { tabs: fixture.tabs, addAnother: fixture.addAnother });
  await saveThroughApi(seedPage, answers);
  for (const [key, record] of Object.entries(fixture.documents)) {
    const name = record.file_name.replace(/\.\w+$/, '.pdf');
    const pdf = await buildPdf(`Document for ${key}`);
    await uploadDocumentThroughApi(seedPage, key, {
      name,
      mimeType: 'application/pdf',
      buffer: Buffer.from(pdf),
    });
  }
  return email;
}

/**
 * The rows of the print view as the reader sees them: each row's label (the `dt`, with the tab
 * note some rows carry after the label, as the PDF prints it too) and value (the `dd`). The data
 * attributes must say the same as the text.
 */
async function readPrintRows(printPage: Page): Promise<Pair[]> {
  const rows = await printPage.locator('[data-answer-label]').evaluateAll((elements) =>
    elements.map((row) => {
      const term = row.querySelector('dt') as HTMLElement | null;
      return {
        label: term?.innerText ?? '',
        ownLabel: term?.firstChild?.textContent ?? '',
        value: (row.querySelector('dd') as HTMLElement | null)?.innerText ?? '',
        kind: row.getAttribute('data-answer-kind') ?? '',
        labelAttribute: row.getAttribute('data-answer-label') ?? '',
        valueAttribute: row.getAttribute('data-answer-value') ?? '',
      };
    }),
  );
  for (const row of rows) {
    expect(row.ownLabel.trim()).toBe(row.labelAttribute.trim());
    expect(squeeze(row.value)).toBe(squeeze(row.valueAttribute));
  }
  return rows.map(({ label, value, kind }) => ({ label, value, kind }));
}

/**
 * Compared as text with every whitespace run removed: the PDF wraps lines and breaks pages where
 * the browser does not, and pdftotext turns ligatures into their letters (NFKC matches that).
 */
function squeeze(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, '');
}

/** Where the row stops matching the PDF text, for a message a person can act on. */
function describeMismatch(text: string, cursor: number, row: string): string {
  const anywhere = text.indexOf(row);
  if (anywhere >= 0) return `only before the previous row (at ${anywhere}, cursor ${cursor})`;
  // Start where the PDF has the longest run of the row's beginning after the cursor.
  let best = { at: cursor, length: 0 };
  for (
    let at = text.indexOf(row.slice(0, 8), cursor);
    at >= 0;
    at = text.indexOf(row.slice(0, 8), at + 1)
  ) {
    let length = 0;
    while (length < row.length && text[at + length] === row[length]) length += 1;
    if (length > best.length) best = { at, length };
  }
  const web = row.slice(Math.max(0, best.length - 40), best.length + 60);
  const pdf = text.slice(Math.max(best.at, best.at + best.length - 40), best.at + best.length + 60);
  return best.length === 0
    ? `not in the PDF; the PDF goes on with "${text.slice(cursor, cursor + 100)}"`
    : `differs after ${best.length} of ${row.length} characters: web "…${web}…", PDF "…${pdf}…"`;
}

/**
 * Walks the PDF text once: each row must come after the previous one, its value straight after its
 * label (its box straight before it for a checkbox). Returns the rows that break that, with what
 * the PDF holds there instead.
 */
function findOutOfOrder(pairs: readonly Pair[], pdfText: string): string[] {
  // The page numbers are stamped on each page afterwards; a long row running over a page end has
  // one inside it, which is page furniture, not part of the row. Stamps are whole lines of their
  // own; removed before the whitespace goes, so a value's own digits are never taken for one.
  const text = squeeze(pdfText.replace(/^[ \t\f]*Page \d+ of \d+[ \t]*$/gm, ''));
  const problems: string[] = [];
  let cursor = 0;
  for (const [index, pair] of pairs.entries()) {
    // The order the reader sees: a checkbox row shows its box first (the web by CSS order).
    const row =
      pair.kind === 'check'
        ? squeeze(pair.value) + squeeze(pair.label)
        : squeeze(pair.label) + squeeze(pair.value);
    const at = text.indexOf(row, cursor);
    if (at < 0) {
      problems.push(`row ${index + 1} "${pair.label}": ${describeMismatch(text, cursor, row)}`);
      continue;
    }
    cursor = at + row.length;
  }
  return problems;
}

describe('the print view and the PDF show the same answers', () => {
  it.each(PARITY_FIXTURES)('%s', async (name) => {
    const fixture = ANSWER_FIXTURES[name];
    ({ context, page, pageErrors } = await openPage(browser, server, WAIT_MS));
    const email = await seedFixture(page, fixture);
    // The staff member's browser holds no applicant cookie.
    await context.clearCookies();

    const { url, token } = await mintServiceToken(server, email);
    await page.goto(url);
    await page.locator('[data-answer-label]').first().waitFor();
    const webPairs = await readPrintRows(page);
    const webText = await page.locator('body').innerText();

    // A second token for the PDF: the print view's use of the first is logged on its own.
    const pdfToken = (await mintServiceToken(server, email)).token;
    expect(pdfToken).not.toBe(token);
    const response = await page.request.get(
      `/service/pdf?service_token=${encodeURIComponent(pdfToken)}`,
      { timeout: WAIT_MS },
    );
    expect(response.status(), await response.text().catch(() => '')).toBe(200);
    const pdf = await response.body();
    expect(isPdf(pdf)).toBe(true);
    const pdfText = await extractPdfText(pdf, { mode: 'raw' });

    // Enough rows to mean something, and every fixture's own values among them.
    expect(webPairs.length).toBeGreaterThan(20);
    expect(webPairs.every((pair) => pair.label.trim() !== '')).toBe(true);
    expect(webText).toContain(fixture.answers.first_name);
    expect(findOutOfOrder(webPairs, pdfText), 'rows missing or out of order in the PDF').toEqual(
      [],
    );
    // The structure tree a screen reader follows: one TH/TD row per print-view row, in order.
    const structureRows = await extractStructureRows(pdf);
    expect(
      structureRows.map((row) => [squeeze(row.th), squeeze(row.td)]),
      'rows of the PDF structure tree against the print view',
    ).toEqual(webPairs.map((pair) => [squeeze(pair.label), squeeze(pair.value)]));
    for (const document of Object.values(fixture.documents)) {
      const shownName = document.file_name.replace(/\.\w+$/, '.pdf');
      expect(webText).toContain(shownName);
      expect(squeeze(pdfText)).toContain(squeeze(shownName));
    }

    // Saved in the raw answers, hidden by other answers: shown by neither renderer.
    for (const key of fixture.hiddenKeys) {
      const hidden = fixture.answers[key] ?? '';
      expect(hidden, `hidden fixture value of ${key}`).toContain('HIDDEN');
      expect(webText, `web shows hidden ${key}`).not.toContain(hidden);
      expect(squeeze(pdfText), `PDF shows hidden ${key}`).not.toContain(squeeze(hidden));
    }
  });
});
