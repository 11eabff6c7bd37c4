// The S3 driver's wire format against s3rver (a local S3-compatible server). s3rver does not
// check POST policies or signatures, so the security checks are tested on the local driver
// (documents.test.ts); this proves the presigned POST, reads, writes and deletes speak S3.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { loadConfig } from '../src/config';
import { createStorage } from '../src/storage/create-storage';
import { createUploadKey, UPLOAD_POLICY, type StorageDriver } from '../src/storage/storage-driver';
import { systemClock } from '../src/lib/clock';

describe('S3 storage driver (s3rver)', () => {
  let server: S3rver;
  let dir: string;
  let storage: StorageDriver;

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
    const config = loadConfig({
      DATA_DIR: dir,
      S3_BUCKET: 'admissions-documents',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    expect(config.s3?.forcePathStyle).toBe(true);
    storage = createStorage(config, Buffer.alloc(32), systemClock);
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
});
