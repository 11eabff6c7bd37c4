// Batch export benchmark (issue #8), one run prints applications per minute for 200 seeded
// submitted applications, each with three converted documents merged into its PDF:
//  - in-process: `npm run cli -- export --out DIR` (default concurrency: a render thread per core)
//  - --queue with two `npm run cli -- worker` processes doing the rendering
// Both are the real command in its own process, timed from start to exit (start-up included).
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres (a database of its
// own, created and dropped); storage on local disk in a temporary DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/platform/db/connect';
import { migrateDatabase } from '../src/platform/db/migrate';
import { loadSecrets } from '../src/platform/lib/crypto';
import { systemClock } from '../src/platform/lib/clock';
import { createStorage } from '../src/platform/storage/create-storage';
import { seedApplications } from '../test/support/seed-applications';
import { reportBench } from '../../../bench/report';
import { readTreeCpuMs } from './process-tree-cpu';

const COUNT = Number(process.argv[2] ?? 200);
const apiDir = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

function cli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/boot/cli.ts', ...args], {
    cwd: apiDir,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    child,
    output: () => stdout,
    done: new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, stdout, stderr })),
    ),
  };
}

/**
 * CPU seconds (user + system, all threads) a live process and its descendants have used, from
 * /proc: the renders run in sandbox children, which the process's own figure leaves out.
 */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined || !existsSync(`/proc/${pid}`)) return NaN;
  return readTreeCpuMs(pid) / 1000;
}

async function timedExport(args: string[], env: Record<string, string>) {
  const started = performance.now();
  const run = cli(['export', ...args], env);
  // Sampled until the process exits (the last sample misses at most 100 ms).
  let cpu = 0;
  const sampler = setInterval(() => {
    const now = cpuSeconds(run.child.pid);
    if (!Number.isNaN(now)) cpu = now;
  }, 100);
  const result = await run.done;
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0)
    throw new Error(`export exited ${result.code}:\n${result.stdout}${result.stderr}`);
  const rendered = Number(/(\d+) rendered/.exec(result.stdout)?.[1] ?? 0);
  // The last progress line's rate counts from the first render: start-up left out.
  const rates = [...result.stderr.matchAll(/\((\d+)\/min, ETA/g)];
  const steady = Number(rates.at(-1)?.[1] ?? NaN);
  return { seconds, rendered, perMinute: (rendered / seconds) * 60, steady, cpu };
}

async function waitFor(check: () => boolean, what: string, ms = 120_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const name = `export_bench_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'export-bench-'));
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir };
const workers: ChildProcess[] = [];
await admin(`CREATE DATABASE ${name}`);
try {
  const config = loadConfig({ ...env });
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir, poolSize: 4 });
  await migrateDatabase(database);
  const secrets = await loadSecrets(null, dataDir);
  const storage = await createStorage(config, secrets.hmacKey, systemClock);
  const seedStarted = performance.now();
  const notes: string[] = [];
  await seedApplications(
    { db: database.db, storage, encryptionKey: secrets.encryptionKey },
    { count: COUNT, fixtures: ['add-another'] },
  );
  notes.push(
    `Seeding ${COUNT} submitted applications with 3 converted documents each took ` +
      `${((performance.now() - seedStarted) / 1000).toFixed(1)} s.`,
  );
  await storage.close();
  await database.close();

  const inProcess = await timedExport(['--out', path.join(dataDir, 'in-process')], env);
  const cores = os.availableParallelism();
  const cpuPerApp = inProcess.cpu / inProcess.rendered;
  const rerun = await timedExport(['--out', path.join(dataDir, 'in-process')], env);
  notes.push(
    `A rerun with nothing changed rendered ${rerun.rendered} in ${rerun.seconds.toFixed(1)} s.`,
  );

  // Two worker processes (each also starts its LibreOffice pool; one process keeps it small).
  for (let i = 0; i < 2; i++) {
    const worker = cli(['worker'], { ...env, OFFICE_POOL_SIZE: '1' });
    workers.push(worker.child);
    await waitFor(() => worker.output().includes('worker started'), 'a worker to start');
  }
  // Let the workers finish warming (fonts, LibreOffice) before timing.
  await new Promise((r) => setTimeout(r, 3000));
  const workersBefore = workers.map((w) => cpuSeconds(w.pid));
  const queued = await timedExport(['--out', path.join(dataDir, 'queued'), '--queue'], env);
  const workerCpu = workers.reduce((n, w, i) => n + cpuSeconds(w.pid) - workersBefore[i]!, 0);
  const queueCpuPerApp = (workerCpu + queued.cpu) / queued.rendered;
  const row = (
    label: string,
    run: Awaited<ReturnType<typeof timedExport>>,
    cpuPerApplication: number,
  ) => [
    label,
    `${run.rendered} in ${run.seconds.toFixed(1)} s`,
    `${run.perMinute.toFixed(0)}/min`,
    `${run.steady}/min`,
    `${(cpuPerApplication * 1000).toFixed(0)} ms (≈ ${((cores * 60) / cpuPerApplication).toFixed(0)}/min on ${cores} idle cores)`,
    '≥ 600/min (#8), ≥ 1,000/min (#32)',
  ];
  // #32's rate is a CPU budget: two cores at 1,000 a minute leave 120 ms of CPU per application.
  const budgetMs = (cores * 60_000) / 1000;
  notes.push(
    `#32's ≥ 1,000/min leaves at most ${budgetMs.toFixed(0)} ms of CPU per application on ` +
      `${cores} cores for everything: the export's processes spent ` +
      `${(cpuPerApp * 1000).toFixed(0)} ms in process (PostgreSQL's reads and the start-up ` +
      `come on top), and the run reached ${inProcess.perMinute.toFixed(0)}/min, ` +
      `${inProcess.steady}/min after start-up: the rate is bound by CPU, nearly all of it the ` +
      'tagged layout with three documents merged (see the application-pdf section).',
  );
  reportBench({
    id: 'export',
    title: 'Batch export (`services/api`, issue #8)',
    command: 'npm run bench -w services/api -- export',
    description:
      `${COUNT} seeded submitted applications on PostgreSQL, each with three converted documents ` +
      'merged into its PDF. The real command in its own process, timed from start to exit ' +
      '(start-up included): in process (`npm run cli -- export --out DIR`, a render thread per ' +
      'core) and with `--queue` and two `npm run cli -- worker` processes doing the rendering. ' +
      '"After start-up" is the rate the progress line reports from the first render on; CPU time ' +
      'is read from /proc for every process involved and its children (the renders run in sandbox ' +
      'children).',
    tables: [
      {
        columns: [
          'mode',
          'rendered',
          'applications/min',
          'after start-up',
          'CPU per application',
          'target',
        ],
        rows: [
          row(`in process (concurrency ${cores})`, inProcess, cpuPerApp),
          row('--queue, two worker processes', queued, queueCpuPerApp),
        ],
      },
    ],
    notes,
  });
} finally {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) => {
          if (w.exitCode !== null) return resolve(undefined);
          w.once('exit', resolve);
          w.kill('SIGTERM');
        }),
    ),
  );
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
}
