// The document flow end to end on both databases, with the real LibreOffice: upload through the
// local presigned-POST endpoint, conversion job, status polling, answers, tabs, deletes, 409s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES as FORM_MESSAGES } from '@admissions/form';
import { DOCUMENT_MESSAGES, MESSAGES } from '@admissions/api-contract';
import { processExists, pdfText } from './support/pdf-inspect';
import {
  buildMacroDocx,
  buildMarkedJpeg,
  buildSlowDocx,
  buildTwoPageDocx,
  buildZipBombDocx,
  encryptPdf,
  buildPdf,
  withExif,
} from './support/document-fixtures';
import { createUploadClient } from './support/upload-client';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const TIMEOUT_MS = 3000;
const DOC = 'personal_statement_doc';

describe.each(availableDrivers())('documents on %s', (driver) => {
  let t: TestRuntime;
  let client: ReturnType<typeof createUploadClient>;
  let counter = 0;
  const freshApplicant = () => registerApplicant(t, `doc${++counter}.${driver}@example.org`);

  beforeAll(async () => {
    t = await createTestRuntime(driver, {
      CONVERSION_TIMEOUT_MS: String(TIMEOUT_MS),
      OFFICE_POOL_SIZE: '1',
      CONVERSION_CONCURRENCY: '1',
    });
    client = createUploadClient(t);
  });
  afterAll(async () => {
    const pids = t.runtime.conversion?.pool.pids() ?? [];
    await t.close();
    for (const pid of pids) expect(processExists(pid)).toBe(false);
  });

  it('converts an uploaded docx; the answer becomes ANSWERED with the file name and size', async () => {
    const jar = await freshApplicant();
    const docx = buildTwoPageDocx();
    const { url, fields } = await client.presign(jar, DOC);
    expect(url).toBe('/storage/upload');
    expect(Object.keys(fields).sort()).toEqual(['key', 'policy', 'signature']);
    expect(
      (await client.post(url, fields, { name: 'statement.docx', bytes: docx })).statusCode,
    ).toBe(204);
    const started = await client.api(jar, 'POST', `/api/pdf/document-answer/${DOC}`, {
      file_key: fields.key,
      file_name: 'statement.docx',
    });
    expect(started.json()).toEqual({ status: 'UNPROCESSED', message: DOCUMENT_MESSAGES.waiting });
    expect(await client.waitForResult(jar, DOC)).toEqual({
      status: 'COMPLETED',
      message: DOCUMENT_MESSAGES.completed,
      page_count: 2,
      thumbnail_url: expect.stringMatching(
        /^\/api\/document-answer\/personal_statement_doc\/thumbnail\?v=/,
      ),
    });

    const profile = (await client.api(jar, 'GET', '/api/profile')).json();
    expect(profile.answer[DOC]).toBe('ANSWERED');
    expect(profile.document_answer).toEqual({
      [DOC]: { file_name: 'statement.docx', file_size: docx.length },
    });
    expect((await client.api(jar, 'GET', '/api/document-answer')).json()).toEqual(
      profile.document_answer,
    );

    // The stored PDF is the document; the upload itself is gone.
    const [row] = (
      await t.runtime.database.executeSql('SELECT pdf_key FROM document_answers')
    ).rows.filter(Boolean) as { pdf_key: string }[];
    const pdf = await t.runtime.storage.read(row!.pdf_key, 10_000_000);
    expect(pdfText(pdf!)).toContain('Personal statement of Ada Lovelace');
    expect(await t.runtime.storage.read(fields.key!, 10_000_000)).toBeNull();

    // Deleting the document clears the answer.
    const deleted = await client.api(jar, 'DELETE', `/api/document-answer/${DOC}`);
    expect(deleted.json()).toEqual({ message: DOCUMENT_MESSAGES.deleted });
    expect((await client.api(jar, 'GET', '/api/profile')).json().answer[DOC]).toBe('');
    expect((await client.api(jar, 'GET', `/api/pdf/document-answer/${DOC}`)).json().status).toBe(
      'NOT_ANSWERED',
    );
    expect(await t.runtime.storage.read(row!.pdf_key, 10_000_000)).toBeNull();
  });

  it('converts a JPEG and passes a PDF through', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'photo.jpg', withExif(await buildMarkedJpeg(300, 150), 6));
    expect((await client.waitForResult(jar, DOC)).status).toBe('COMPLETED');
    await client.upload(jar, 'honors_statement_doc', 'records.pdf', await buildPdf('Records'));
    expect((await client.waitForResult(jar, 'honors_statement_doc')).status).toBe('COMPLETED');
    const documents = (await client.api(jar, 'GET', '/api/document-answer')).json();
    expect(Object.keys(documents).sort()).toEqual(['honors_statement_doc', DOC]);
  });

  it.each([
    [
      'an exe renamed .pdf',
      'setup.pdf',
      () => Buffer.from('MZ\x90\x00 This program cannot be run in DOS mode'),
      FORM_MESSAGES.fileType,
    ],
    [
      'HTML renamed .png',
      'image.png',
      () => Buffer.from('<html><script>alert(1)</script></html>'),
      FORM_MESSAGES.fileType,
    ],
    [
      'a macro-enabled document renamed .docx',
      'statement.docx',
      () => buildMacroDocx(),
      DOCUMENT_MESSAGES.unsafeContent,
    ],
    [
      'a 33-character name',
      `${'n'.repeat(28)}.docx`,
      () => buildTwoPageDocx(),
      FORM_MESSAGES.fileNameTooLong,
    ],
  ])(
    'fails %s with the documented message and clears the answer',
    async (_label, name, bytes, message) => {
      const jar = await freshApplicant();
      await client.api(jar, 'PUT', '/api/answer', { [DOC]: 'ANSWERED' });
      await client.upload(jar, DOC, name, bytes());
      expect(await client.waitForResult(jar, DOC)).toEqual({ status: 'FAILED', message });
      expect((await client.api(jar, 'GET', '/api/profile')).json().answer[DOC]).toBe('');
      // The SPA resets the error by deleting the conversion.
      expect((await client.api(jar, 'DELETE', `/api/pdf/document-answer/${DOC}`)).statusCode).toBe(
        200,
      );
      expect((await client.api(jar, 'GET', `/api/pdf/document-answer/${DOC}`)).json().status).toBe(
        'NOT_ANSWERED',
      );
    },
  );

  it('fails an encrypted PDF', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'locked.pdf', await encryptPdf(await buildPdf('secret')));
    expect(await client.waitForResult(jar, DOC)).toEqual({
      status: 'FAILED',
      message: DOCUMENT_MESSAGES.pdfEncrypted,
    });
  });

  it('fails a zip bomb and a document that keeps LibreOffice busy, within the time-out, killing it', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'bomb.docx', buildZipBombDocx());
    expect(await client.waitForResult(jar, DOC)).toEqual({
      status: 'FAILED',
      message: DOCUMENT_MESSAGES.tooComplex,
    });

    // Warm the pool first so the PID that will be killed is known.
    await client.upload(jar, DOC, 'ok.docx', buildTwoPageDocx());
    expect((await client.waitForResult(jar, DOC)).status).toBe('COMPLETED');
    const pids = t.runtime.conversion!.pool.pids();
    expect(pids).toHaveLength(1);
    const started = Date.now();
    await client.upload(jar, DOC, 'slow.docx', buildSlowDocx());
    expect(await client.waitForResult(jar, DOC)).toEqual({
      status: 'FAILED',
      message: DOCUMENT_MESSAGES.tooComplex,
    });
    // Generous on a loaded machine (upload, checks, polling); a conversion left to run would take
    // minutes.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
    for (const pid of pids) expect(processExists(pid)).toBe(false);
    // The failure cleared the earlier document too (docs/behaviour.md: on FAILED the answer is cleared).
    expect((await client.api(jar, 'GET', '/api/document-answer')).json()).toEqual({});
  });

  describe('the local upload endpoint checks its policy', () => {
    it('refuses a tampered key, a tampered policy and a forged signature', async () => {
      const jar = await freshApplicant();
      const { url, fields } = await client.presign(jar, DOC);
      const other = await client.presign(jar, 'honors_statement_doc');
      const file = { name: 'a.pdf', bytes: await buildPdf('x') };
      const tamperedKey = await client.post(url, { ...fields, key: other.fields.key! }, file);
      expect(tamperedKey.statusCode).toBe(403);
      expect(tamperedKey.json().message).toBe(DOCUMENT_MESSAGES.uploadRefused);
      const policy = JSON.parse(Buffer.from(fields.policy!, 'base64url').toString());
      const widened = Buffer.from(JSON.stringify({ ...policy, maxBytes: 50_000_000 })).toString(
        'base64url',
      );
      expect((await client.post(url, { ...fields, policy: widened }, file)).statusCode).toBe(403);
      expect(
        (await client.post(url, { ...fields, signature: 'A'.repeat(43) }, file)).statusCode,
      ).toBe(403);
      // Another applicant's policy moved to this applicant's key fails the same way.
      expect((await client.post(url, { ...other.fields, key: fields.key! }, file)).statusCode).toBe(
        403,
      );
    });

    it('refuses an expired policy', async () => {
      const jar = await freshApplicant();
      const { url, fields } = await client.presign(jar, DOC);
      const now = new Date();
      t.clock.set(new Date(t.clock.now().getTime() + 10 * 60_000 + 1000));
      try {
        const response = await client.post(url, fields, {
          name: 'a.pdf',
          bytes: await buildPdf('x'),
        });
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(DOCUMENT_MESSAGES.uploadExpired);
      } finally {
        t.clock.set(new Date(t.clock.now().getTime() - 10 * 60_000 - 1000));
        void now;
      }
    });

    it('refuses an oversized body and an empty file, and keeps nothing', async () => {
      const jar = await freshApplicant();
      // Each attempt with a new link, as the SPA sends each file: a refused one is released.
      const { url, fields } = await client.presign(jar, DOC);
      const big = await client.post(url, fields, {
        name: 'big.pdf',
        bytes: Buffer.alloc(1_048_577, 0x41),
      });
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe(FORM_MESSAGES.fileTooLarge);
      expect(await t.runtime.storage.read(fields.key!, 2_000_000)).toBeNull();
      const second = await client.presign(jar, DOC);
      const empty = await client.post(second.url, second.fields, {
        name: 'empty.pdf',
        bytes: Buffer.alloc(0),
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe(FORM_MESSAGES.fileEmpty);
      // Exactly 1 MB is fine.
      const third = await client.presign(jar, DOC);
      const max = await client.post(third.url, third.fields, {
        name: 'max.pdf',
        bytes: Buffer.alloc(1_048_576, 0x41),
      });
      expect(max.statusCode).toBe(204);
    });
  });

  it('binds keys to their applicant and question', async () => {
    const alice = await freshApplicant();
    const bob = await freshApplicant();
    const { url, fields } = await client.presign(alice, DOC);
    await client.post(url, fields, { name: 'a.docx', bytes: buildTwoPageDocx() });
    // Bob cannot convert Alice's upload, nor can Alice use it for another question.
    const stolen = await client.api(bob, 'POST', `/api/pdf/document-answer/${DOC}`, {
      file_key: fields.key,
      file_name: 'a.docx',
    });
    expect(stolen.statusCode).toBe(404);
    const moved = await client.api(alice, 'POST', '/api/pdf/document-answer/honors_statement_doc', {
      file_key: fields.key,
      file_name: 'a.docx',
    });
    expect(moved.statusCode).toBe(404);
    await client.api(alice, 'POST', `/api/pdf/document-answer/${DOC}`, {
      file_key: fields.key,
      file_name: 'a.docx',
    });
    expect((await client.waitForResult(alice, DOC)).status).toBe('COMPLETED');
    // Bob sees nothing of it and cannot delete it.
    expect((await client.api(bob, 'GET', `/api/pdf/document-answer/${DOC}`)).json().status).toBe(
      'NOT_ANSWERED',
    );
    expect((await client.api(bob, 'GET', '/api/document-answer')).json()).toEqual({});
    await client.api(bob, 'DELETE', `/api/document-answer/${DOC}`);
    expect(Object.keys((await client.api(alice, 'GET', '/api/document-answer')).json())).toEqual([
      DOC,
    ]);
  });

  it('refuses questions that take no file', async () => {
    const jar = await freshApplicant();
    const response = await client.api(jar, 'POST', '/api/presigned-url', {
      answer_key: 'fake_doc',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(DOCUMENT_MESSAGES.notAFileQuestion);
    const notFile = await client.api(jar, 'POST', '/api/presigned-url', {
      answer_key: 'first_name',
    });
    expect(notFile.statusCode).toBe(400);
  });

  it('switching tabs deletes the file of the tab left, and is refused while converting', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'statement.docx', buildTwoPageDocx());
    // Still converting: refused with the dialog's text.
    const refused = await client.api(jar, 'PUT', '/api/tabs', {
      tab_id: 'personal_statement',
      chosen_tab: 'essay',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(DOCUMENT_MESSAGES.conversionInProgress);
    expect((await client.waitForResult(jar, DOC)).status).toBe('COMPLETED');

    const switched = await client.api(jar, 'PUT', '/api/tabs', {
      tab_id: 'personal_statement',
      chosen_tab: 'essay',
    });
    expect(switched.statusCode).toBe(200);
    const profile = (await client.api(jar, 'GET', '/api/profile')).json();
    expect(profile.answer[DOC]).toBe('');
    expect(profile.document_answer).toEqual({});
    expect((await client.api(jar, 'GET', `/api/pdf/document-answer/${DOC}`)).json().status).toBe(
      'NOT_ANSWERED',
    );
  });

  it('refuses every document change after submit (409)', async () => {
    const email = `submitted.${driver}@example.org`;
    const jar = await registerApplicant(t, email);
    const { fields } = await client.presign(jar, DOC);
    // Frozen as submit() freezes it (a complete application is not this test's subject).
    await t.runtime.database.executeSql(
      'UPDATE applications SET submitted_at = now() WHERE user_id = (SELECT id FROM users WHERE email = $1)',
      [email],
    );
    const calls = [
      client.api(jar, 'POST', '/api/presigned-url', { answer_key: DOC }),
      client.api(jar, 'POST', `/api/pdf/document-answer/${DOC}`, {
        file_key: fields.key,
        file_name: 'a.docx',
      }),
      client.api(jar, 'DELETE', `/api/pdf/document-answer/${DOC}`),
      client.api(jar, 'DELETE', `/api/document-answer/${DOC}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(MESSAGES.alreadySubmitted);
    }
  });
});
