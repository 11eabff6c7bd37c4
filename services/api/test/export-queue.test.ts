// --queue on both databases: the export hands each application to the job workers (here a worker
// registered on the test runtime's own pg-boss, as `npm run cli -- worker` registers it), which
// render the staff PDF and store it; the CLI side collects the results from the job table.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueueRenderer, startExportWorker } from '../src/modules/export/export-jobs';
import { parseExportArgs } from '../src/modules/export/options';
import { createProgress } from '../src/modules/export/progress';
import { createPdfLayout } from '../src/modules/export/render';
import { runExport } from '../src/modules/export/run';
import { renderApplicationPdf } from '../src/modules/print/pdf-renderer';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';
import { seedApplications, type SeededApplication } from './support/seed-applications';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(availableDrivers())('export --queue on %s', (driver) => {
  let t: TestRuntime;
  let seeded: SeededApplication[];
  let stopWorker: () => Promise<void>;
  const work = mkdtempSync(path.join(os.tmpdir(), 'export-queue-'));

  beforeAll(async () => {
    t = await createTestRuntime(driver, { RUN_WORKER_IN_PROCESS: 'false' });
    const deps = {
      db: t.runtime.database.db,
      storage: t.runtime.storage,
      encryptionKey: t.runtime.secrets.encryptionKey,
    };
    seeded = await seedApplications(deps, { count: 8 });
    stopWorker = await startExportWorker(t.runtime.queue, {
      ...deps,
      database: t.runtime.database,
      clock: t.clock,
      partner: t.runtime.partner,
      layout: createPdfLayout(renderApplicationPdf),
      logger: pino({ level: 'silent' }),
    });
  });
  /** `npm run cli -- export --out DIR --queue`, rendered by the worker started above. */
  function exportThroughQueue(dir: string, write: (line: string) => void) {
    return runExport(parseExportArgs(['--out', dir, '--queue'], work, 2), {
      db: t.runtime.database.db,
      render: createQueueRenderer({
        queue: t.runtime.queue,
        storage: t.runtime.storage,
        pollMs: 100,
      }),
      progress: createProgress({ write, isTTY: false }),
    });
  }

  afterAll(async () => {
    await stopWorker?.();
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('exports through the workers, with the same index and hashes, and leaves nothing in storage', async () => {
    const dir = path.join(work, 'out');
    const lines: string[] = [];
    const summary = await exportThroughQueue(dir, (line) => lines.push(line));
    expect(summary).toMatchObject({ selected: 8, rendered: 8, exitCode: 0 });
    expect(lines.filter((l) => l.startsWith('['))).toHaveLength(8);
    const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
      applications: {
        id: string;
        file: string;
        sha256: string;
        pages: number;
        documents: string[];
      }[];
    };
    expect(index.applications.map((r) => r.id).sort()).toEqual(seeded.map((s) => s.id).sort());
    for (const row of index.applications) {
      expect(sha256(readFileSync(path.join(dir, row.file)))).toBe(row.sha256);
      expect(row.pages).toBeGreaterThan(1);
    }
    expect(index.applications.some((r) => r.documents.length === 3)).toBe(true);
    // The workers' copies were collected and removed.
    const exported = path.join(t.dataDir, 'blobs', 'applications');
    const leftovers = existsSync(exported)
      ? readdirSync(exported, { recursive: true }).filter((f) => String(f).endsWith('.pdf'))
      : [];
    expect(leftovers).toEqual([]);
  });

  it('reports an application the workers could not render, and completes the others', async () => {
    const broken = seeded.find((s) => Object.keys(s.documents).length > 0)!;
    const key = Object.values(broken.documents)[0]!;
    const original = await t.runtime.storage.read(key, 1 << 24);
    await t.runtime.storage.write(key, new TextEncoder().encode('not a pdf'), 'application/pdf');
    try {
      const summary = await exportThroughQueue(path.join(work, 'broken'), () => undefined);
      expect(summary.exitCode).toBe(2);
      expect(summary.rendered).toBe(7);
      expect(summary.failures.map((f) => f.id)).toEqual([broken.id]);
    } finally {
      await t.runtime.storage.write(key, original!, 'application/pdf');
    }
  });
});
