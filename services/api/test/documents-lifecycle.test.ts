// The document lifecycle on both databases: frozen after submit (the two races), upload links
// that work once, the per-applicant bounds, one conversion at a time, cleanup of every blob no
// row refers to, and which failures are the service's. The in-process conversion workers are
// stopped so each test runs a job exactly when it needs to (runConversion with the real
// converter), which is what makes the races deterministic.
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { APPLICATION_DEFINITION, findQuestionEntry } from '@admissions/form';
import { MESSAGES as FORM_MESSAGES } from '@admissions/form';
import { DOCUMENT_MESSAGES, MESSAGES, formatSubmitWhileConverting } from '@admissions/api-contract';
import {
  CONVERSION_QUEUE_NAME,
  createDocumentKey,
  createUploadKey,
} from '../src/modules/documents';
import { createManualClock } from '../src/platform/lib/clock';
import {
  createDocumentConverter,
  type DocumentConverter,
} from '../src/modules/documents/conversion/convert-document';
import { ConverterUnavailableError } from '../src/modules/documents/conversion/conversion-errors';
import { createDocumentStore, type DocumentStore } from '../src/modules/documents/document-store';
import { UPLOAD_LIMITS } from '../src/modules/documents/conversion/limits';
import { createDocumentPreviewer } from '../src/modules/documents/document-preview';
import {
  orphanGraceMs,
  runConversion,
  sweepOrphanBlobs,
  sweepStuckConversions,
  type ConversionJob,
} from '../src/modules/documents/conversion-jobs';
import type { StorageDriver } from '../src/platform/storage/storage-driver';
import { buildPdf } from './support/document-fixtures';
import { pdfText } from './support/pdf-inspect';
import { createUploadClient } from './support/upload-client';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const DOC = 'personal_statement_doc';
const OTHER_DOC = 'honors_statement_doc';
const THIRD_DOC = 'business_statement_doc';
const FOURTH_DOC = 'support_statement_doc';
const FIFTH_DOC = 'levermore_statement_doc';
const TIMEOUT_MS = 5000;
const MB = 1024 * 1024;
const quiet = pino({ level: 'silent' });

describe.each(availableDrivers())('document lifecycle on %s', (driver) => {
  let t: TestRuntime;
  let client: ReturnType<typeof createUploadClient>;
  let store: DocumentStore;
  let converter: DocumentConverter;
  let counter = 0;

  const freshApplicant = async () => {
    const email = `life${++counter}.${driver}@example.org`;
    const jar = await registerApplicant(t, email);
    const { rows } = await t.runtime.database.executeSql('SELECT id FROM users WHERE email = $1', [
      email,
    ]);
    return { jar, userId: (rows[0] as { id: string }).id };
  };

  /** Links of the applicant still in progress: not released, not turned into a conversion. */
  const countOpenLinks = async (userId: string): Promise<number> => {
    const { rows } = await t.runtime.database.executeSql(
      `SELECT count(*)::int AS n FROM document_uploads
        WHERE application_id = $1 AND released_at IS NULL AND consumed_at IS NULL`,
      [userId],
    );
    return (rows[0] as { n: number }).n;
  };

  /** The job POST /api/pdf/document-answer/{key} queued for this applicant and question. */
  const pendingJob = async (applicationId: string, answerKey: string): Promise<ConversionJob> => {
    const { rows } = await t.runtime.database.executeSql(
      'SELECT token FROM document_conversions WHERE application_id = $1 AND answer_key = $2',
      [applicationId, answerKey],
    );
    return { applicationId, answerKey, token: (rows[0] as { token: string }).token };
  };

  const run = (
    job: ConversionJob,
    options: {
      converter?: DocumentConverter;
      storage?: StorageDriver;
      lastAttempt?: boolean;
      requeue?: (job: ConversionJob) => Promise<void>;
    } = {},
  ) =>
    runConversion(
      {
        store,
        storage: options.storage ?? t.runtime.storage,
        converter: options.converter ?? converter,
        previewer: createDocumentPreviewer({ sandbox: t.runtime.sandbox, logger: quiet }),
        clock: t.clock,
        logger: quiet,
        requeue: options.requeue,
      },
      job,
      options.lastAttempt ?? false,
    );

  /** Freezes the application the way a submit that slipped in meanwhile would have. */
  const freeze = (userId: string) =>
    t.runtime.database.executeSql(
      'UPDATE applications SET submitted_at = now() WHERE user_id = $1',
      [userId],
    );

  const documentRow = async (userId: string, answerKey: string) => {
    const { rows } = await t.runtime.database.executeSql(
      'SELECT pdf_key, thumbnail_key FROM document_answers WHERE application_id = $1 AND answer_key = $2',
      [userId, answerKey],
    );
    return rows[0] as { pdf_key: string; thumbnail_key: string } | undefined;
  };

  const listKeys = async (prefix: 'uploads/' | 'documents/', userId: string) => {
    const keys: string[] = [];
    for await (const object of t.runtime.storage.list(prefix)) {
      if (object.key.startsWith(`${prefix}${userId}/`)) keys.push(object.key);
    }
    return keys.sort();
  };

  /** Uploads a file and converts it with the real converter: the applicant's document. */
  const convertDocument = async (
    user: { jar: Record<string, string>; userId: string },
    answerKey: string,
    text: string,
  ) => {
    const started = await client.upload(user.jar, answerKey, 'statement.pdf', await buildPdf(text));
    expect(started.statusCode).toBe(200);
    await run(await pendingJob(user.userId, answerKey));
    expect(await client.waitForResult(user.jar, answerKey, 1000)).toMatchObject({
      status: 'COMPLETED',
      message: DOCUMENT_MESSAGES.completed,
    });
  };

  beforeAll(async () => {
    t = await createTestRuntime(driver, {
      CONVERSION_TIMEOUT_MS: String(TIMEOUT_MS),
      OFFICE_POOL_SIZE: '1',
      CONVERSION_CONCURRENCY: '1',
    });
    // Jobs stay queued: each test runs the one it needs, when it needs it.
    await t.runtime.queue.offWork(CONVERSION_QUEUE_NAME);
    client = createUploadClient(t);
    store = createDocumentStore(t.runtime.database.db);
    converter = createDocumentConverter({
      pool: t.runtime.conversion!.pool,
      sandbox: t.runtime.sandbox,
      logger: quiet,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('frozen after submit', () => {
    it('POST /api/submit answers 409 naming the question while its file converts', async () => {
      const user = await freshApplicant();
      expect(
        (await client.upload(user.jar, DOC, 'statement.pdf', await buildPdf('Pending'))).statusCode,
      ).toBe(200);
      const label = findQuestionEntry(APPLICATION_DEFINITION, DOC)!.question.label;
      const refused = await client.api(user.jar, 'POST', '/api/submit');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(formatSubmitWhileConverting(label));
      // Once converted, submit is judged on the answers again (this application is incomplete).
      await run(await pendingJob(user.userId, DOC));
      expect((await client.api(user.jar, 'POST', '/api/submit')).statusCode).toBe(422);
    });

    it('a conversion that finishes after submit does not replace the submitted document', async () => {
      const user = await freshApplicant();
      await convertDocument(user, DOC, 'The submitted statement');
      const submitted = (await documentRow(user.userId, DOC))!;

      await client.upload(user.jar, DOC, 'later.pdf', await buildPdf('A later statement'));
      // Submitted while this conversion ran: the converter returns, then the result is stored.
      const submitDuringConversion: DocumentConverter = {
        ...converter,
        async convert(input) {
          const result = await converter.convert(input);
          await freeze(user.userId);
          return result;
        },
      };
      await run(await pendingJob(user.userId, DOC), { converter: submitDuringConversion });

      expect(await documentRow(user.userId, DOC)).toEqual(submitted);
      const pdf = await t.runtime.storage.read(submitted.pdf_key, 10 * MB);
      expect(pdfText(pdf!)).toContain('The submitted statement');
      const profile = (await client.api(user.jar, 'GET', '/api/profile')).json();
      expect(profile.answer[DOC]).toBe('ANSWERED');
      expect(profile.document_answer[DOC].file_name).toBe('statement.pdf');
      expect(await client.waitForResult(user.jar, DOC, 1000)).toEqual({
        status: 'FAILED',
        message: MESSAGES.alreadySubmitted,
      });
      // Neither the late PDF, its thumbnail nor its upload is left behind.
      expect(await listKeys('documents/', user.userId)).toEqual(
        [submitted.pdf_key, submitted.thumbnail_key].sort(),
      );
      expect(await listKeys('uploads/', user.userId)).toEqual([]);
    });

    it('a conversion that fails after submit keeps the submitted document and its ANSWERED answer', async () => {
      const user = await freshApplicant();
      await convertDocument(user, DOC, 'The submitted statement');
      const submitted = (await documentRow(user.userId, DOC))!;

      const exe = Buffer.from('MZ\x90\x00 This program cannot be run in DOS mode');
      await client.upload(user.jar, DOC, 'setup.pdf', exe);
      // Pending at submit: the job runs (and fails) only afterwards.
      await freeze(user.userId);
      await run(await pendingJob(user.userId, DOC));

      expect(await documentRow(user.userId, DOC)).toEqual(submitted);
      expect(await t.runtime.storage.read(submitted.pdf_key, 10 * MB)).not.toBeNull();
      const profile = (await client.api(user.jar, 'GET', '/api/profile')).json();
      expect(profile.answer[DOC]).toBe('ANSWERED');
      expect(Object.keys(profile.document_answer)).toEqual([DOC]);
      expect(await listKeys('uploads/', user.userId)).toEqual([]);
    });

    it('a conversion that fails while it runs keeps the submitted document too', async () => {
      const user = await freshApplicant();
      await convertDocument(user, DOC, 'The submitted statement');
      const submitted = (await documentRow(user.userId, DOC))!;
      await client.upload(user.jar, DOC, 'setup.pdf', Buffer.from('MZ\x90\x00 not a PDF'));
      const submitThenReject: DocumentConverter = {
        ...converter,
        async convert(input) {
          await freeze(user.userId);
          return converter.convert(input);
        },
      };
      await run(await pendingJob(user.userId, DOC), { converter: submitThenReject });
      expect(await documentRow(user.userId, DOC)).toEqual(submitted);
      expect((await client.api(user.jar, 'GET', '/api/profile')).json().answer[DOC]).toBe(
        'ANSWERED',
      );
    });
  });

  describe('upload links', () => {
    it('accepts one upload per link, refuses it again before and after the conversion starts', async () => {
      const user = await freshApplicant();
      const { url, fields } = await client.presign(user.jar, DOC);
      const file = { name: 'a.pdf', bytes: await buildPdf('first') };
      // Two uploads to one link at the same moment: exactly one is stored.
      const [one, two] = await Promise.all([
        client.post(url, fields, file),
        client.post(url, fields, { name: 'b.pdf', bytes: await buildPdf('second') }),
      ]);
      expect([one.statusCode, two.statusCode].sort()).toEqual([204, 403]);
      expect([one, two].find((r) => r.statusCode === 403)!.json().message).toBe(
        DOCUMENT_MESSAGES.uploadUsed,
      );
      const again = await client.post(url, fields, file);
      expect(again.statusCode).toBe(403);
      expect(again.json().message).toBe(DOCUMENT_MESSAGES.uploadUsed);

      const start = () =>
        client.api(user.jar, 'POST', `/api/pdf/document-answer/${DOC}`, {
          file_key: fields.key,
          file_name: 'a.pdf',
        });
      expect((await start()).statusCode).toBe(200);
      expect((await client.post(url, fields, file)).json().message).toBe(
        DOCUMENT_MESSAGES.uploadUsed,
      );
      await run(await pendingJob(user.userId, DOC));
      expect((await client.waitForResult(user.jar, DOC, 1000)).status).toBe('COMPLETED');
      // The key started its conversion; it cannot start another (nor revive its upload).
      const restarted = await start();
      expect(restarted.statusCode).toBe(409);
      expect(restarted.json().message).toBe(DOCUMENT_MESSAGES.uploadUsed);
      expect((await client.post(url, fields, file)).statusCode).toBe(403);
      expect(await listKeys('uploads/', user.userId)).toEqual([]);
    });

    it('three refused uploads do not lock the applicant out: a refused upload releases its slot', async () => {
      const user = await freshApplicant();
      const refusedLinks: { url: string; fields: Record<string, string> }[] = [];
      // One too large file on each of three questions, as an applicant trying files would.
      for (const key of [DOC, OTHER_DOC, THIRD_DOC]) {
        const link = await client.presign(user.jar, key);
        const tooLarge = await client.post(link.url, link.fields, {
          name: 'a.pdf',
          bytes: Buffer.alloc(MB + 1),
        });
        expect(tooLarge.statusCode).toBe(413);
        refusedLinks.push(link);
      }
      // A fourth question and the first again: both get a link, and the file goes through.
      const fourth = await client.api(user.jar, 'POST', '/api/presigned-url', {
        answer_key: FOURTH_DOC,
      });
      expect(fourth.statusCode, fourth.body).toBe(200);
      const started = await client.upload(user.jar, DOC, 'a.pdf', await buildPdf('accepted'));
      expect(started.statusCode, started.body).toBe(200);
      await run(await pendingJob(user.userId, DOC));
      expect((await client.waitForResult(user.jar, DOC, 1000)).status).toBe('COMPLETED');
      // A refused link takes no other file: the applicant asks for a new one.
      const again = await client.post(refusedLinks[1]!.url, refusedLinks[1]!.fields, {
        name: 'a.pdf',
        bytes: await buildPdf('x'),
      });
      expect(again.statusCode).toBe(403);
      expect(again.json().message).toBe(DOCUMENT_MESSAGES.uploadReleased);
    });

    it('a new link for a question replaces its unused one, which then takes nothing', async () => {
      const user = await freshApplicant();
      // Links asked for and never used (a network error, a closed dialog): ten in a row.
      const links: { url: string; fields: Record<string, string> }[] = [];
      for (let i = 0; i < 10; i++) links.push(await client.presign(user.jar, DOC));
      const first = links[0]!;
      const refused = await client.post(first.url, first.fields, {
        name: 'a.pdf',
        bytes: await buildPdf('late'),
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(DOCUMENT_MESSAGES.uploadReleased);
      const lateStart = await client.api(user.jar, 'POST', `/api/pdf/document-answer/${DOC}`, {
        file_key: first.fields.key,
        file_name: 'a.pdf',
      });
      expect(lateStart.statusCode).toBe(409);
      expect(lateStart.json().message).toBe(DOCUMENT_MESSAGES.uploadReleased);
      // The newest link works, and two other questions still have room.
      const last = links.at(-1)!;
      const stored = await client.post(last.url, last.fields, {
        name: 'a.pdf',
        bytes: await buildPdf('newest'),
      });
      expect(stored.statusCode).toBe(204);
      for (const key of [OTHER_DOC, THIRD_DOC]) {
        const response = await client.api(user.jar, 'POST', '/api/presigned-url', {
          answer_key: key,
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      expect(await countOpenLinks(user.userId)).toBe(3);
    });

    it('stops the "600 × 1 MB in 30 s" abuse: reused links and a burst of links are refused', async () => {
      const user = await freshApplicant();
      const megabyte = Buffer.alloc(MB - 1024, 7);
      const statuses: number[] = [];
      let reuseAccepted = 0;
      for (let i = 0; i < 20; i++) {
        const response = await client.api(user.jar, 'POST', '/api/presigned-url', {
          answer_key: i % 2 === 0 ? DOC : OTHER_DOC,
        });
        statuses.push(response.statusCode);
        if (response.statusCode !== 200) {
          expect(response.json().message).toBe(DOCUMENT_MESSAGES.tooManyUploads);
          continue;
        }
        const { url, fields } = response.json() as { url: string; fields: Record<string, string> };
        for (let reuse = 0; reuse < 5; reuse++) {
          const uploaded = await client.post(url, fields, { name: 'big.pdf', bytes: megabyte });
          if (uploaded.statusCode === 204 && reuse > 0) reuseAccepted++;
        }
      }
      // A new link replaces the question's earlier one, but a file stored through that one stays
      // in flight until it is swept: the bytes bound (5 MB) stops the sixth.
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      expect(reuseAccepted).toBe(0);
      expect(await listKeys('uploads/', user.userId)).toHaveLength(5);
    });

    it('30 concurrent link requests never overshoot the limit (check and write are one step)', async () => {
      const keys = [DOC, OTHER_DOC, THIRD_DOC, FOURTH_DOC, FIFTH_DOC];
      for (let round = 0; round < 3; round++) {
        const user = await freshApplicant();
        const asked = Array.from({ length: 30 }, (_, i) => keys[i % keys.length]!);
        const answers = await Promise.all(
          asked.map((key) =>
            client.api(user.jar, 'POST', '/api/presigned-url', { answer_key: key }),
          ),
        );
        const granted = new Set(asked.filter((_, i) => answers[i]!.statusCode === 200));
        for (const refused of answers.filter((r) => r.statusCode !== 200)) {
          expect(refused.statusCode).toBe(429);
          expect(refused.json().message).toBe(DOCUMENT_MESSAGES.tooManyUploads);
        }
        // A slot frees only when the same question asks again, so at most three questions ever
        // get a link, each with one link in progress.
        expect(granted.size).toBe(UPLOAD_LIMITS.maxPendingUploads);
        expect(await countOpenLinks(user.userId)).toBe(UPLOAD_LIMITS.maxPendingUploads);
        const { rows } = await t.runtime.database.executeSql(
          `SELECT answer_key, count(*)::int AS n FROM document_uploads
            WHERE application_id = $1 AND released_at IS NULL AND consumed_at IS NULL GROUP BY answer_key`,
          [user.userId],
        );
        expect((rows as { n: number }[]).every((row) => row.n === 1)).toBe(true);

        // Thirty at once for one question: each replaces the one before, one stays in progress.
        const single = await freshApplicant();
        const burst = await Promise.all(
          Array.from({ length: 30 }, () =>
            client.api(single.jar, 'POST', '/api/presigned-url', { answer_key: DOC }),
          ),
        );
        expect(burst.map((r) => r.statusCode)).toEqual(Array.from({ length: 30 }, () => 200));
        expect(await countOpenLinks(single.userId)).toBe(1);
      }
    });

    it('counts pending conversions and frees a slot when one ends', async () => {
      const user = await freshApplicant();
      await client.upload(user.jar, DOC, 'a.pdf', await buildPdf('a'));
      await client.upload(user.jar, OTHER_DOC, 'b.pdf', await buildPdf('b'));
      await client.presign(user.jar, THIRD_DOC);
      const ask = () =>
        client.api(user.jar, 'POST', '/api/presigned-url', { answer_key: FOURTH_DOC });
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      await run(await pendingJob(user.userId, DOC));
      expect((await ask()).statusCode).toBe(200);
    });
  });

  it('runs one conversion at a time per applicant; the second waits, it does not fail', async () => {
    const user = await freshApplicant();
    await client.upload(user.jar, DOC, 'a.pdf', await buildPdf('First'));
    await client.upload(user.jar, OTHER_DOC, 'b.pdf', await buildPdf('Second'));
    const first = await pendingJob(user.userId, DOC);
    const second = await pendingJob(user.userId, OTHER_DOC);
    // A worker holds the first one.
    const claimed = await store.claimConversion(
      user.userId,
      DOC,
      first.token,
      t.clock.now(),
      MESSAGES.alreadySubmitted,
    );
    expect(claimed).toMatchObject({ status: 'IN_PROGRESS' });
    const requeued: ConversionJob[] = [];
    await run(second, { requeue: async (job) => void requeued.push(job), lastAttempt: true });
    expect(requeued).toEqual([second]);
    expect(
      (await client.api(user.jar, 'GET', `/api/pdf/document-answer/${OTHER_DOC}`)).json(),
    ).toEqual({ status: 'UNPROCESSED', message: DOCUMENT_MESSAGES.waiting });
    // The worker holding the first one finishes it; then the second gets its turn.
    await run(first);
    await run(second);
    expect((await client.waitForResult(user.jar, DOC, 1000)).status).toBe('COMPLETED');
    expect((await client.waitForResult(user.jar, OTHER_DOC, 1000)).status).toBe('COMPLETED');
  });

  describe('failures', () => {
    it('a failure that repeats on the same bytes is the document’s; the service’s only when it is infrastructure', async () => {
      const user = await freshApplicant();
      const bytes = await buildPdf('Breaks the converter');
      // The converter throws something that is not a known rejection, on every attempt.
      const crashing: DocumentConverter = {
        ...converter,
        async convert() {
          throw new Error('soffice ended with SIGABRT in loadComponentFromURL');
        },
      };
      await client.upload(user.jar, DOC, 'a.pdf', bytes);
      const job = await pendingJob(user.userId, DOC);
      await expect(run(job, { converter: crashing })).rejects.toThrow(/SIGABRT/);
      expect(
        (await client.api(user.jar, 'GET', `/api/pdf/document-answer/${DOC}`)).json().status,
      ).toBe('IN_PROGRESS');
      await run(job, { converter: crashing, lastAttempt: true });
      expect(await client.waitForResult(user.jar, DOC, 1000)).toEqual({
        status: 'FAILED',
        message: DOCUMENT_MESSAGES.conversionFailed,
      });

      // The converter pool is not running: the service's failure.
      await client.upload(user.jar, DOC, 'a.pdf', bytes);
      const down: DocumentConverter = {
        ...converter,
        async convert() {
          throw new ConverterUnavailableError('the conversion pool is closed');
        },
      };
      await run(await pendingJob(user.userId, DOC), { converter: down, lastAttempt: true });
      expect(await client.waitForResult(user.jar, DOC, 1000)).toEqual({
        status: 'FAILED',
        message: DOCUMENT_MESSAGES.conversionUnavailable,
      });

      // Storage that fails: the service's failure too.
      await client.upload(user.jar, DOC, 'a.pdf', bytes);
      const broken: StorageDriver = {
        ...t.runtime.storage,
        async read() {
          throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        },
      };
      await run(await pendingJob(user.userId, DOC), { storage: broken, lastAttempt: true });
      expect(await client.waitForResult(user.jar, DOC, 1000)).toEqual({
        status: 'FAILED',
        message: DOCUMENT_MESSAGES.conversionUnavailable,
      });

      // A rejection reaches the applicant exactly as the converter words it.
      await client.upload(user.jar, DOC, 'image.png', Buffer.from('<html></html>'));
      await run(await pendingJob(user.userId, DOC));
      expect(await client.waitForResult(user.jar, DOC, 1000)).toEqual({
        status: 'FAILED',
        message: FORM_MESSAGES.fileType,
      });
    });
  });

  describe('cleanup', () => {
    it('removes every expired link’s blob at once (no ceiling) and every blob no row refers to', async () => {
      const user = await freshApplicant();
      await convertDocument(user, DOC, 'Kept');
      const { pdf_key: kept, thumbnail_key: keptThumbnail } = (await documentRow(
        user.userId,
        DOC,
      ))!;

      // 250 expired links with their blobs (more than the 100 a sweep used to take).
      const expired: string[] = [];
      for (let i = 0; i < 250; i++) {
        const key = createUploadKey(user.userId, OTHER_DOC);
        expired.push(key);
        await t.runtime.database.executeSql(
          `INSERT INTO document_uploads (storage_key, application_id, answer_key, expires_at, uploaded_at)
           VALUES ($1, $2, $3, now() - interval '1 hour', now() - interval '70 minutes')`,
          [key, user.userId, OTHER_DOC],
        );
        await t.runtime.storage.write(key, Buffer.from('x'), 'application/octet-stream');
      }
      // Blobs with no row: an upload and a converted PDF a crash left behind.
      const orphanUpload = createUploadKey(user.userId, DOC);
      const orphanPdf = createDocumentKey(user.userId, DOC);
      const fresh = createDocumentKey(user.userId, OTHER_DOC);
      for (const key of [orphanUpload, orphanPdf, fresh]) {
        await t.runtime.storage.write(key, Buffer.from('%PDF-1.4'), 'application/pdf');
      }

      const now = Date.now();
      const sweepClock = createManualClock(new Date(now + orphanGraceMs(TIMEOUT_MS) + 60_000));
      if (t.runtime.storage.kind === 'local') {
        // One blob written a moment ago by this clock: still inside its grace period.
        const file = path.join(t.dataDir, 'blobs', fresh);
        const recent = new Date(sweepClock.now().getTime() - 60_000);
        utimesSync(file, recent, recent);
      }
      const deps = {
        store,
        storage: t.runtime.storage,
        clock: sweepClock,
        logger: quiet,
        timeoutMs: TIMEOUT_MS,
      };
      await sweepStuckConversions(deps);
      const uploads = await listKeys('uploads/', user.userId);
      for (const key of expired) expect(uploads).not.toContain(key);
      const { rows } = await t.runtime.database.executeSql(
        'SELECT count(*)::int AS n FROM document_uploads WHERE application_id = $1',
        [user.userId],
      );
      expect((rows[0] as { n: number }).n).toBe(0);

      await sweepOrphanBlobs(deps);
      expect(await listKeys('uploads/', user.userId)).toEqual([]);
      // The kept document's thumbnail is referenced too: the sweep leaves it.
      expect(await listKeys('documents/', user.userId)).toEqual(
        [fresh, kept, keptThumbnail].sort(),
      );
      expect(pdfText((await t.runtime.storage.read(kept, 10 * MB))!)).toContain('Kept');
    });
  });
});

describe('one conversion at a time per applicant, through the queue', () => {
  let t: TestRuntime;
  beforeAll(async () => {
    t = await createTestRuntime('pglite', {
      CONVERSION_TIMEOUT_MS: String(TIMEOUT_MS),
      OFFICE_POOL_SIZE: '1',
      CONVERSION_CONCURRENCY: '2',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('converts both files of an applicant who starts two at once, never both at the same time', async () => {
    const client = createUploadClient(t);
    const jar = await registerApplicant(t, 'two.at.once@example.org');
    await Promise.all([
      client.upload(jar, DOC, 'a.pdf', await buildPdf('First')),
      client.upload(jar, OTHER_DOC, 'b.pdf', await buildPdf('Second')),
    ]);
    let mostAtOnce = 0;
    for (let i = 0; i < 600; i++) {
      const { rows } = await t.runtime.database.executeSql(
        "SELECT count(*) FILTER (WHERE status = 'IN_PROGRESS')::int AS running, count(*) FILTER (WHERE status IN ('UNPROCESSED', 'IN_PROGRESS'))::int AS pending FROM document_conversions",
      );
      const { running, pending } = rows[0] as { running: number; pending: number };
      mostAtOnce = Math.max(mostAtOnce, running);
      if (pending === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(mostAtOnce).toBeLessThanOrEqual(1);
    expect((await client.waitForResult(jar, DOC)).status).toBe('COMPLETED');
    expect((await client.waitForResult(jar, OTHER_DOC)).status).toBe('COMPLETED');
    // Two conversions one after the other from a cold sandbox took 58 s on a busy machine.
  }, 150_000);
});
