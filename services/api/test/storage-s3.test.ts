// The S3 driver's wire format against s3rver (a local S3-compatible server). s3rver does not
// check POST policies or signatures, so the security checks are tested on the local driver
// (documents.test.ts); this proves the presigned POST, reads, writes, deletes and listings speak
// S3, and that cleanup works there: S3 cannot refuse a second upload to a live link, so the copy
// is removed instead.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import S3rver from 's3rver';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { loadConfig } from '../src/platform/config';
import { createStorage } from '../src/platform/storage/create-storage';
import type { StorageDriver } from '../src/platform/storage/storage-driver';
import { createDocumentKey, createUploadKey, UPLOAD_POLICY } from '../src/modules/documents';
import { createManualClock, systemClock } from '../src/platform/lib/clock';
import { createDocumentStore } from '../src/modules/documents/document-store';
import {
  orphanGraceMs,
  sweepOrphanBlobs,
  sweepStuckConversions,
} from '../src/modules/documents/conversion-jobs';
import { buildPdf } from './support/document-fixtures';
import { createUploadClient } from './support/upload-client';
import { createTestRuntime, registerApplicant, type TestRuntime } from './support/test-runtime';

async function postForm(url: string, fields: Record<string, string>, bytes: Uint8Array) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), 'records.pdf');
  return fetch(url, { method: 'POST', body: form });
}

describe('S3 storage driver (s3rver)', () => {
  let server: S3rver;
  let dir: string;
  let storage: StorageDriver;
  let s3Env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'admissions-documents', configs: [] }],
    });
    const { port } = await server.run();
    s3Env = {
      S3_BUCKET: 'admissions-documents',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const config = loadConfig({ DATA_DIR: dir, ...s3Env });
    expect(config.s3?.forcePathStyle).toBe(true);
    storage = await createStorage(config, Buffer.alloc(32), systemClock);
  });
  afterAll(async () => {
    await storage?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads with a real presigned POST and reads, writes and deletes objects', async () => {
    expect(storage.kind).toBe('s3');
    const key = createUploadKey('00000000-0000-4000-8000-000000000001', 'personal_statement_doc');
    const { url, fields } = await storage.presignPost(key, UPLOAD_POLICY);
    expect(fields.key).toBe(key);
    // The policy the store would enforce: the exact key and the size range.
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 1_048_576]);
    expect(policy.conditions).toContainEqual({ key });
    const expiresIn = new Date(policy.expiration).getTime() - Date.now();
    expect(expiresIn).toBeLessThanOrEqual(600_000);
    expect(fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);

    // The browser's form: the fields, then the file.
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const content = Buffer.from('%PDF-1.4 uploaded through a presigned POST');
    form.append('file', new Blob([content]), 'records.pdf');
    const response = await fetch(url, { method: 'POST', body: form });
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);

    expect(Buffer.from((await storage.read(key, 1_048_576))!).equals(content)).toBe(true);
    await expect(storage.read(key, 10)).rejects.toThrow(/larger than allowed/);
    const pdfKey = key.replace('uploads/', 'documents/') + '.pdf';
    await storage.write(pdfKey, new Uint8Array([1, 2, 3]), 'application/pdf');
    expect([...(await storage.read(pdfKey, 100))!]).toEqual([1, 2, 3]);
    await storage.delete(key);
    await storage.delete(pdfKey);
    expect(await storage.read(key, 1_048_576)).toBeNull();
    expect(await storage.read(pdfKey, 100)).toBeNull();
  });

  it('lists the objects under a prefix', async () => {
    const user = '00000000-0000-4000-8000-000000000002';
    const keys = Array.from({ length: 12 }, () => createDocumentKey(user, 'transcript_doc'));
    for (const key of keys) await storage.write(key, new Uint8Array([1]), 'application/pdf');
    const listed: string[] = [];
    for await (const object of storage.list('documents/')) {
      if (object.key.includes(user)) listed.push(object.key);
      expect(object.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 600_000);
    }
    expect(listed.sort()).toEqual([...keys].sort());
    for (const key of keys) await storage.delete(key);
  });

  describe('the document lifecycle on S3', () => {
    let t: TestRuntime;
    beforeAll(async () => {
      t = await createTestRuntime('pglite', {
        ...s3Env,
        CONVERSION_TIMEOUT_MS: '5000',
        OFFICE_POOL_SIZE: '1',
        CONVERSION_CONCURRENCY: '1',
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('a link starts one conversion; a second upload to it and every orphan are removed', async () => {
      const client = createUploadClient(t);
      const jar = await registerApplicant(t, 's3.lifecycle@example.org');
      const { url, fields } = await client.presign(jar, 'personal_statement_doc');
      expect((await postForm(url, fields, await buildPdf('Uploaded to S3'))).ok).toBe(true);
      const start = () =>
        client.api(jar, 'POST', '/api/pdf/document-answer/personal_statement_doc', {
          file_key: fields.key,
          file_name: 'records.pdf',
        });
      expect((await start()).statusCode).toBe(200);
      expect((await client.waitForResult(jar, 'personal_statement_doc')).status).toBe('COMPLETED');
      // The job removes the upload just after it records the document.
      for (let i = 0; i < 100 && (await t.runtime.storage.read(fields.key!, 1_048_576)); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await t.runtime.storage.read(fields.key!, 1_048_576)).toBeNull();
      // S3 takes the same link again (its policy cannot say "once"), but the key cannot start
      // another conversion, and the copy goes when the link expires.
      expect((await postForm(url, fields, await buildPdf('Again'))).ok).toBe(true);
      expect((await start()).json().message).toBe(DOCUMENT_MESSAGES.uploadUsed);
      expect(await t.runtime.storage.read(fields.key!, 1_048_576)).not.toBeNull();

      const { rows } = await t.runtime.database.executeSql('SELECT pdf_key FROM document_answers');
      const kept = (rows[0] as { pdf_key: string }).pdf_key;
      const userId = kept.split('/')[1]!;
      const orphan = createDocumentKey(userId, 'personal_statement_doc');
      await t.runtime.storage.write(orphan, new Uint8Array([1]), 'application/pdf');

      const deps = {
        store: createDocumentStore(t.runtime.database.db),
        storage: t.runtime.storage,
        clock: createManualClock(new Date(Date.now() + orphanGraceMs(5000) + 60_000)),
        logger: pino({ level: 'silent' }),
        timeoutMs: 5000,
      };
      await sweepStuckConversions(deps);
      expect(await t.runtime.storage.read(fields.key!, 1_048_576)).toBeNull();
      await sweepOrphanBlobs(deps);
      expect(await t.runtime.storage.read(orphan, 10)).toBeNull();
      expect(await t.runtime.storage.read(kept, 10_000_000)).not.toBeNull();
    });
  });
});
