// The staff PDF after submit (issue #30), on both drivers, through the real routes, LibreOffice
// and the sandboxed renderer: it ends with a bookmarked, tagged section per received checklist
// item (a Word letter converted, a typed letter, a requested PDF), on every staff path — the staff
// area's download, GET /service/pdf and the export's per-application files —, never in the
// applicant's own copy; and a checklist change makes the next incremental export render exactly
// that application again.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationPdfResponse, ChecklistResponse } from '@admissions/api-contract';
import { checkPdfUa } from '../../../packages/answer-view/test/pdf-ua-check';
import { pdfOutline } from '../../../packages/answer-view/test/pdf-tools';
import { loadConfig } from '../src/platform/config';
import { parseExportArgs } from '../src/modules/export/options';
import { createProgress } from '../src/modules/export/progress';
import { createApplicationRenderer, type ApplicationRenderer } from '../src/modules/export/render';
import { createRenderPool, type RenderPool } from '../src/modules/export/render-pool';
import { runExport } from '../src/modules/export/run';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import { buildWordPackage, wParagraph } from './support/docx-builder';
import { pdfPageCount, pdfText } from './support/pdf-inspect';
import { enrolStaffMember } from './support/staff-enrolment';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type OutboxMessage,
  type TestRuntime,
} from './support/test-runtime';

const WORD_LETTER = 'Recommendation — Charles Babbage';
const TYPED_LETTER = 'Recommendation — Mary Somerville';
const TRANSCRIPT = 'Official transcript';
const LATE_LETTER = 'Recommendation — Augustus De Morgan';
const LETTER_SENTENCE = 'Ada is the most original mathematician I have taught in thirty years';
const TYPED_SENTENCE = 'Ada is a remarkable student and a kind classmate';
const TRANSCRIPT_SENTENCE = 'Final grade in Analytical Engines: distinction';
const LATE_SENTENCE = 'Ada corrected my notes on the calculus of functions';

/** Everything the letters and the transcript say that the applicant must never see. */
const STAFF_ONLY = [
  WORD_LETTER,
  TYPED_LETTER,
  TRANSCRIPT,
  LETTER_SENTENCE,
  TYPED_SENTENCE,
  TRANSCRIPT_SENTENCE,
];

/** Text with all whitespace removed: pdftotext breaks lines wherever the layout did. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

function buildLetterDocx(): Uint8Array {
  return buildWordPackage({
    body: [
      wParagraph('To the Admissions Committee,'),
      wParagraph(`${LETTER_SENTENCE}.`),
      wParagraph('Sincerely, Charles Babbage'),
    ].join(''),
  });
}

/** A transcript as a school's system writes one: two pages, no tags. */
async function buildTranscriptPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Transcript of Ada Lovelace', { x: 72, y: 700, size: 14, font });
  doc.addPage([612, 792]).drawText(TRANSCRIPT_SENTENCE, { x: 72, y: 700, size: 12, font });
  return doc.save();
}

function linkToken(message: OutboxMessage): string {
  const match = /\/recommend\/([A-Za-z0-9_-]+)/.exec(message.text);
  if (!match) throw new Error(`no recommendation link in: ${message.text}`);
  return match[1]!;
}

const topLevelTitles = (bytes: Uint8Array) => pdfOutline(bytes).map((entry) => entry.title);

describe.each(availableDrivers())('the staff PDF ends with the checklist (%s)', (driver) => {
  let t: TestRuntime;
  let ada: Record<string, string>;
  let grace: Record<string, string>;
  let adaId: string;
  let graceId: string;
  let processor: Record<string, string>;
  let pool: RenderPool;
  let render: ApplicationRenderer;
  const work = mkdtempSync(path.join(os.tmpdir(), 'checklist-pdf-'));

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body?: unknown,
    cookies?: Record<string, string>,
  ) => t.request({ method, url, body, cookies });

  async function applicationIdOf(email: string): Promise<string> {
    const { rows } = await t.runtime.database.db.execute<{ id: string }>(
      sql`SELECT a.id FROM applications a JOIN users u ON u.id = a.user_id WHERE u.email = ${email}`,
    );
    return rows[0]!.id;
  }

  /** Polls the applicant's checklist until `done` holds (conversions run in the worker). */
  async function waitForChecklist(done: (c: ChecklistResponse) => boolean) {
    for (let i = 0; i < 600; i++) {
      const response = await call('GET', '/api/checklist', undefined, ada);
      expect(response.statusCode, response.body).toBe(200);
      const checklist = response.json<ChecklistResponse>();
      if (done(checklist)) return checklist;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the checklist did not get there');
  }

  async function addRecommender(type: string, name: string, email: string): Promise<string> {
    const added = await call('POST', '/api/recommenders', { type, name, email }, ada);
    expect(added.statusCode, added.body).toBe(200);
    return linkToken(await t.waitForMail(email, /recommendation/));
  }

  async function submitTypedLetter(token: string, text: string) {
    const typed = await call('POST', `/public/recommendations/${token}`, {
      known_years: 2,
      capacity: 'School counselor',
      letter_text: text,
    });
    expect(typed.statusCode, typed.body).toBe(200);
  }

  const staffPdf = async (id: string) => {
    const response = await call('GET', `/staff/api/applications/${id}/pdf`, undefined, processor);
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  };

  const exportRun = (dir: string) =>
    runExport(parseExportArgs(['--out', dir, '--status', 'all'], work, 2), {
      db: t.runtime.database.db,
      render,
      progress: createProgress({ write: () => undefined, isTTY: false }),
    });

  /** The exported file of one application (index.json names it). */
  const exportedPdf = (dir: string, id: string) => {
    const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
      applications: { id: string; file: string; export: string }[];
    };
    const row = index.applications.find((r) => r.id === id)!;
    return { bytes: readFileSync(path.join(dir, row.file)), export: row.export };
  };

  beforeAll(async () => {
    t = await createTestRuntime(driver, { REQUEST_TIMEOUT_MS: '600000' });
    pool = createRenderPool(2, loadConfig({}));
    render = createApplicationRenderer(
      {
        db: t.runtime.database.db,
        storage: t.runtime.storage,
        encryptionKey: t.runtime.secrets.encryptionKey,
        clock: t.clock,
        partner: t.runtime.partner,
      },
      pool.render,
    );
    ada = await registerApplicant(t, 'ada@example.org');
    grace = await registerApplicant(t, 'grace@example.org');
    for (const [jar, first, last] of [
      [ada, 'Ada', 'Lovelace'],
      [grace, 'Grace', 'Hopper'],
    ] as const) {
      const saved = await call(
        'PUT',
        '/api/answer',
        { first_name: first, last_name: last, counselor_waiver_request: 'Y' },
        jar,
      );
      expect(saved.statusCode, saved.body).toBe(200);
    }
    adaId = await applicationIdOf('ada@example.org');
    graceId = await applicationIdOf('grace@example.org');
    processor = (await enrolStaffMember(t, 'processor@staff.example.edu', 'processor')).jar;

    // A Word letter through the converter, a typed letter, and a file the office asked for.
    const babbage = await addRecommender('teacher', 'Charles Babbage', 'babbage@example.org');
    const somerville = await addRecommender('counselor', 'Mary Somerville', 'mary@example.org');
    const submitted = await call('POST', `/public/recommendations/${babbage}`, {
      known_years: 3,
      capacity: 'Teacher',
      letter_file: {
        file_name: 'letter.docx',
        content_base64: Buffer.from(buildLetterDocx()).toString('base64'),
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    await submitTypedLetter(somerville, `${TYPED_SENTENCE}.\n\nI recommend her warmly.`);
    const requested = await call(
      'POST',
      `/staff/api/applications/${adaId}/requests`,
      { title: TRANSCRIPT, message: 'Please upload your final transcript.' },
      processor,
    );
    expect(requested.statusCode, requested.body).toBe(200);
    const slot = (await waitForChecklist(() => true)).items.find((i) => i.title === TRANSCRIPT)!;
    const uploaded = await call(
      'POST',
      `/api/checklist/${slot.id}/document`,
      {
        file_name: 'transcript.pdf',
        content_base64: Buffer.from(await buildTranscriptPdf()).toString('base64'),
      },
      ada,
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    await waitForChecklist((c) =>
      c.items
        .filter((i) => ['teacher-1', 'counselor', slot.id].includes(i.id))
        .every((i) => i.status === 'received'),
    );
  }, 300_000);

  afterAll(async () => {
    await pool?.close();
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('ends the staff area’s PDF with a bookmarked section per received item, still tagged', async () => {
    const bytes = await staffPdf(adaId);
    const titles = topLevelTitles(bytes);
    // After the answer pages, in the checklist's order: letters (the counselor's first), then
    // requested materials.
    expect(titles.slice(-3)).toEqual([TYPED_LETTER, WORD_LETTER, TRANSCRIPT]);
    const text = squeeze(pdfText(bytes));
    for (const sentence of [LETTER_SENTENCE, TYPED_SENTENCE, TRANSCRIPT_SENTENCE]) {
      expect(text).toContain(squeeze(sentence));
    }
    // The recommender's answers stand above the letter.
    expect(text).toContain(squeeze('Recommender Charles Babbage (Teacher)'));
    expect(text).toContain(squeeze('Has known the applicant for 3 years'));

    // Tagged: the converted Word letter keeps its tags, the typed letter is tagged here; only the
    // transcript's own two pages (an untagged PDF, as uploaded) fail, and the cover says so.
    const pages = pdfPageCount(bytes);
    const failing = new Set(
      (await checkPdfUa(bytes)).map((finding) => /^page (\d+)/.exec(finding.message)?.[1]),
    );
    expect([...failing].sort()).toEqual([String(pages - 1), String(pages)].sort());
    expect(text).toContain(squeeze(`${TRANSCRIPT}: not tagged by its author`));
    expect(text).not.toContain(squeeze(`${WORD_LETTER}: not tagged`));
    const outline = pdfOutline(bytes);
    expect(outline.at(-1)).toMatchObject({ title: TRANSCRIPT, page: pages - 2 });
  }, 120_000);

  it('ends GET /service/pdf the same way', async () => {
    const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
      applicationId: adaId,
      now: t.clock.now(),
    });
    const response = await call('GET', `/service/pdf?service_token=${encodeURIComponent(token)}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(topLevelTitles(response.rawPayload).slice(-3)).toEqual([
      TYPED_LETTER,
      WORD_LETTER,
      TRANSCRIPT,
    ]);
    const text = squeeze(pdfText(response.rawPayload));
    expect(text).toContain(squeeze(LETTER_SENTENCE));
    expect(text).toContain(squeeze(TYPED_SENTENCE));
  }, 120_000);

  it('never puts any of it in the applicant’s own PDF', async () => {
    let status: ApplicationPdfResponse | undefined;
    for (let i = 0; i < 600 && !status; i++) {
      const response = await call('GET', '/api/pdf', undefined, ada);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<ApplicationPdfResponse>();
      if (body.status === 'COMPLETED' || body.status === 'FAILED') status = body;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(status?.status, status?.message).toBe('COMPLETED');
    const file = await call('GET', status!.url, undefined, ada);
    expect(file.statusCode).toBe(200);
    const bytes = file.rawPayload;
    expect(await checkPdfUa(bytes)).toEqual([]);
    // The same version's staff copy has all of it: the audience decides, not the timing.
    expect(topLevelTitles(await staffPdf(adaId))).toEqual(
      expect.arrayContaining([WORD_LETTER, TYPED_LETTER, TRANSCRIPT]),
    );
    const titles = topLevelTitles(bytes);
    const text = squeeze(pdfText(bytes));
    for (const secret of STAFF_ONLY) {
      expect(titles).not.toContain(secret);
      expect(text).not.toContain(squeeze(secret));
    }
    expect(text).toContain('Lovelace');
  }, 120_000);

  it('renders exactly the changed application in the next incremental export', async () => {
    const dir = path.join(work, 'incremental');
    expect(await exportRun(dir)).toMatchObject({ rendered: 2, unchanged: 0, exitCode: 0 });
    // The export's per-application file is the staff PDF: it ends with the checklist.
    const first = exportedPdf(dir, adaId).bytes;
    expect(topLevelTitles(first).slice(-3)).toEqual([TYPED_LETTER, WORD_LETTER, TRANSCRIPT]);
    expect(squeeze(pdfText(first))).toContain(squeeze(LETTER_SENTENCE));
    expect(topLevelTitles(exportedPdf(dir, graceId).bytes)).not.toContain(WORD_LETTER);
    expect(await exportRun(dir)).toMatchObject({ rendered: 0, unchanged: 2 });

    // A letter received on Ada's application: only hers is rendered again, and shows it.
    const deMorgan = await addRecommender('teacher', 'Augustus De Morgan', 'demorgan@example.org');
    expect(await exportRun(dir)).toMatchObject({ rendered: 1, unchanged: 1 });
    await submitTypedLetter(deMorgan, LATE_SENTENCE);
    expect(await exportRun(dir)).toMatchObject({ rendered: 1, unchanged: 1 });
    const after = exportedPdf(dir, adaId);
    expect(after.export).toBe('rendered');
    expect(exportedPdf(dir, graceId).export).toBe('unchanged');
    expect(topLevelTitles(after.bytes).slice(-4)).toEqual([
      TYPED_LETTER,
      WORD_LETTER,
      LATE_LETTER,
      TRANSCRIPT,
    ]);
    expect(squeeze(pdfText(after.bytes))).toContain(squeeze(LATE_SENTENCE));

    // The office asks for another item, then waives it: each time exactly Ada's again.
    const requested = await call(
      'POST',
      `/staff/api/applications/${adaId}/requests`,
      { title: 'Proof of English proficiency', message: '' },
      processor,
    );
    expect(requested.statusCode, requested.body).toBe(200);
    expect(await exportRun(dir)).toMatchObject({ rendered: 1, unchanged: 1 });
    const item = requested
      .json<ChecklistResponse>()
      .items.find((i) => i.title === 'Proof of English proficiency')!;
    const waived = await call(
      'POST',
      `/staff/api/applications/${adaId}/waivers`,
      { item: item.id },
      processor,
    );
    expect(waived.statusCode, waived.body).toBe(200);
    expect(await exportRun(dir)).toMatchObject({ rendered: 1, unchanged: 1 });
    expect(exportedPdf(dir, adaId).export).toBe('rendered');
    expect(exportedPdf(dir, graceId).export).toBe('unchanged');
    // Neither changed what the file shows: nothing was received.
    expect(topLevelTitles(exportedPdf(dir, adaId).bytes)).not.toContain(
      'Proof of English proficiency',
    );
  }, 240_000);
});
