// DATA_DIR is the service user's alone: the embedded server on its own files (PGlite on disk, as
// `npm start` runs it), after a sign-up, an upload and a conversion, over a directory an older
// version left world-readable.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf } from './support/document-fixtures';
import { createUploadClient } from './support/upload-client';
import {
  buildEmbeddedEnv,
  findFreePort,
  launchProcess,
  serviceScript,
  waitUntilReady,
} from './support/process-stack';
import { createTestRuntime, registerApplicant, type TestRuntime } from './support/test-runtime';

/** Every entry under dir with its permission bits, relative paths. */
function listModes(dir: string): { entry: string; kind: string; mode: number }[] {
  const found: { entry: string; kind: string; mode: number }[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const info = lstatSync(full);
      const kind = info.isDirectory()
        ? 'dir'
        : info.isFile()
          ? 'file'
          : info.isSocket()
            ? 'socket'
            : 'other';
      found.push({ entry: path.relative(dir, full), kind, mode: info.mode & 0o777 });
      if (info.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return found;
}

/** Entries that are not the service user's alone: directories 0700, files 0600, sockets closed. */
function listOpenEntries(dir: string) {
  return listModes(dir).filter((e) =>
    e.kind === 'dir'
      ? e.mode !== 0o700
      : e.kind === 'file'
        ? e.mode !== 0o600
        : // The CLI's socket to the embedded database: no access for anyone else either.
          (e.mode & 0o077) !== 0,
  );
}

describe('DATA_DIR permissions (embedded database on disk)', () => {
  let t: TestRuntime;
  const previousUmask = process.umask();

  beforeAll(async () => {
    // What the service meets in the field: the usual umask, and files an older version wrote.
    process.umask(0o022);
    t = await createTestRuntime(
      'pglite',
      { CONVERSION_TIMEOUT_MS: '10000', OFFICE_POOL_SIZE: '1', CONVERSION_CONCURRENCY: '1' },
      {
        pgliteOnDisk: true,
        prepareDataDir: (dataDir) => {
          chmodSync(dataDir, 0o755);
          mkdirSync(path.join(dataDir, 'outbox'), { mode: 0o755 });
          writeFileSync(path.join(dataDir, 'outbox', 'old-message.json'), '{}', { mode: 0o644 });
          mkdirSync(path.join(dataDir, 'blobs', 'documents'), { recursive: true, mode: 0o777 });
          writeFileSync(path.join(dataDir, 'blobs', 'documents', 'old.pdf'), '%PDF', {
            mode: 0o666,
          });
          chmodSync(path.join(dataDir, 'blobs', 'documents', 'old.pdf'), 0o666);
        },
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    process.umask(previousUmask);
  });

  it('keeps every directory 0700 and every file 0600 after sign-up, upload and conversion', async () => {
    const jar = await registerApplicant(t, 'private.files@example.org');
    const client = createUploadClient(t);
    const started = await client.upload(
      jar,
      'personal_statement_doc',
      'records.pdf',
      await buildPdf('Private'),
    );
    expect(started.statusCode).toBe(200);
    expect((await client.waitForResult(jar, 'personal_statement_doc')).status).toBe('COMPLETED');

    expect(lstatSync(t.dataDir).mode & 0o777).toBe(0o700);
    const entries = listModes(t.dataDir);
    // The database, the key, the outbox and the blobs are all there to be judged.
    const names = entries.map((e) => e.entry);
    expect(names).toContain('secret.key');
    expect(names.some((n) => n.startsWith(`db${path.sep}`))).toBe(true);
    expect(
      names.some((n) => n.startsWith(`outbox${path.sep}`) && n !== 'outbox/old-message.json'),
    ).toBe(true);
    expect(names.some((n) => n.startsWith(path.join('blobs', 'documents', '')))).toBe(true);

    expect(listOpenEntries(t.dataDir)).toEqual([]);
  });
});

describe('DATA_DIR permissions (the server as `npm start` runs it)', () => {
  // The entry point opens PGlite itself, before the rest of the service loads, and fixes modes in
  // one walk once it listens: PGlite's own files (0666 whatever the umask) and old ones alike.
  it('brings every entry to 0700/0600 once the server answers, PGlite’s files included', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'data-dir-server-'));
    const dataDir = path.join(root, 'data');
    mkdirSync(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'outbox', 'old-message.json'), '{}');
    chmodSync(path.join(dataDir, 'outbox', 'old-message.json'), 0o644);
    const port = await findFreePort();
    const env = buildEmbeddedEnv({ port, dataDir, scratchDir: root });
    // `umask 022; npm start`: what a shell usually hands the server (the child inherits it).
    const previousUmask = process.umask(0o022);
    const server = launchProcess('api', [serviceScript('compiled', 'server')], env, root);
    process.umask(previousUmask);
    try {
      await waitUntilReady(
        server,
        async () => (await fetch(`http://127.0.0.1:${port}/health`)).status === 200,
      );
      expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
      expect(readdirSync(path.join(dataDir, 'db')).length).toBeGreaterThan(0);
      let open = listOpenEntries(dataDir);
      for (let waited = 0; open.length > 0 && waited < 20_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        open = listOpenEntries(dataDir);
      }
      expect(open).toEqual([]);
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
