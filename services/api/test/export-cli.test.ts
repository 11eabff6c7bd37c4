// `npm run cli -- export` as an operator runs it, in its own process: on PostgreSQL beside the
// test runtime (exit codes, the failure list, Ctrl-C and resume), and on the embedded database
// while a real server holds it (through the server's socket, in-process and with --queue).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/platform/config';
import { openDatabase, type Database } from '../src/platform/db/connect';
import { findRunningPgliteUrl } from '../src/platform/db/pglite-socket';
import { loadSecrets } from '../src/platform/lib/crypto';
import { systemClock } from '../src/platform/lib/clock';
import { createStorage } from '../src/platform/storage/create-storage';
import { STATE_FILE } from '../src/modules/export/state';
import { createTestRuntime, type TestRuntime } from './support/test-runtime';
import { seedApplications, type SeededApplication } from './support/seed-applications';
import { nodeArgsFor, serviceScript } from './support/process-stack';

const apiDir = path.resolve(import.meta.dirname, '..');

interface CliRun {
  child: ChildProcess;
  result: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stderrSoFar(): string;
}

/** The command as an operator types it (`npm run cli -- …`), in a process group of its own. */
function startCli(args: string[], env: Record<string, string>): CliRun {
  const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd: path.resolve(apiDir, '../..'),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    child,
    stderrSoFar: () => stderr,
    // As a shell reports it: npm itself may end by the signal (128 + its number).
    result: new Promise((resolve) =>
      child.on('exit', (code, signal) =>
        resolve({
          code: code ?? (signal ? 128 + os.constants.signals[signal] : null),
          stdout,
          stderr,
        }),
      ),
    ),
  };
}

const stateEntries = (dir: string) =>
  Object.keys(
    (JSON.parse(readFileSync(path.join(dir, STATE_FILE), 'utf8')) as { applications: object })
      .applications,
  ).length;

describe.runIf(inject('postgresUrl'))('export command on postgres', () => {
  let t: TestRuntime;
  let seeded: SeededApplication[];
  let env: Record<string, string>;
  const work = mkdtempSync(path.join(os.tmpdir(), 'export-cli-'));

  beforeAll(async () => {
    t = await createTestRuntime('postgres', { RUN_WORKER_IN_PROCESS: 'false' });
    seeded = await seedApplications(
      {
        db: t.runtime.database.db,
        storage: t.runtime.storage,
        encryptionKey: t.runtime.secrets.encryptionKey,
      },
      { count: 20 },
    );
    const { rows } = await t.runtime.database.executeSql('SELECT current_database() AS name');
    const url = new URL(inject('postgresUrl')!);
    url.pathname = `/${String(rows[0]!.name)}`;
    env = { DATABASE_URL: url.toString(), DATA_DIR: t.dataDir };
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('stops cleanly on Ctrl-C (exit 130, state kept) and a rerun resumes', async () => {
    const dir = path.join(work, 'interrupted');
    const run = startCli(['export', '--out', dir, '--concurrency', '1'], env);
    for (let i = 0; i < 600 && !/\[2\/20\]/.test(run.stderrSoFar()); i++) await delay(100);
    // Ctrl-C in a terminal: SIGINT to the whole foreground group (npm and the command).
    process.kill(-run.child.pid!, 'SIGINT');
    const first = await run.result;
    expect(first.code, first.stdout + first.stderr).toBe(130);
    expect(first.stdout).toContain('(interrupted)');
    expect(first.stdout).toContain('Run the same command to resume');
    const done = stateEntries(dir);
    expect(done).toBeGreaterThanOrEqual(2);
    expect(done).toBeLessThan(20);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdf'))).toHaveLength(done);
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
    expect(existsSync(path.join(dir, 'index.json'))).toBe(false);

    const second = await startCli(['export', '--out', dir], env).result;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `20 selected: ${20 - done} rendered, ${done} unchanged, 0 failed`,
    );
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdf'))).toHaveLength(20);
  });

  it('exits 2 and lists the failed application with its reason', async () => {
    const broken = seeded.find((s) => Object.keys(s.documents).length > 0)!;
    const key = Object.values(broken.documents)[0]!;
    const original = await t.runtime.storage.read(key, 1 << 24);
    await t.runtime.storage.write(key, new Uint8Array([1, 2, 3]), 'application/pdf');
    try {
      const result = await startCli(['export', '--out', path.join(work, 'broken'), '--zip'], env)
        .result;
      expect(result.code).toBe(2);
      expect(result.stdout).toContain('20 selected: 19 rendered, 0 unchanged, 1 failed');
      expect(result.stdout).toMatch(new RegExp(`Failed:\\n  ${broken.id} \\([^)]+\\): \\S`));
      expect(result.stdout).toMatch(/wrote .*export-\d{8}T\d{6}Z\.zip/);
    } finally {
      await t.runtime.storage.write(key, original!, 'application/pdf');
    }
  });
});

describe('export command while the server holds the embedded database', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'export-server-'));
  let server: ChildProcess | undefined;
  let database: Database | undefined;

  beforeAll(async () => {
    server = spawn(process.execPath, nodeArgsFor(serviceScript('compiled', 'server')), {
      cwd: apiDir,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    let url: string | null = null;
    for (let i = 0; i < 600 && !url; i++) {
      await delay(100);
      url = await findRunningPgliteUrl(dataDir);
    }
    if (!url) throw new Error('the server did not open its socket');
    database = await openDatabase({ databaseUrl: url, dataDir, poolSize: 1 });
    const config = loadConfig({ DATA_DIR: dataDir });
    const secrets = await loadSecrets(null, config.dataDir);
    const storage = await createStorage(config, secrets.hmacKey, systemClock);
    // Migrations ran in the server before the socket opened.
    await seedApplications(
      { db: database.db, storage, encryptionKey: secrets.encryptionKey },
      { count: 4 },
    );
    await storage.close();
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports through the server socket, in-process and with --queue on the server worker', async () => {
    const env = { DATA_DIR: dataDir };
    const local = await startCli(['export', '--out', path.join(dataDir, 'local')], env).result;
    expect(local.stderr).not.toMatch(/command failed/);
    expect(local.code, local.stdout).toBe(0);
    expect(local.stdout).toContain('4 selected: 4 rendered');
    const queued = await startCli(['export', '--out', path.join(dataDir, 'queued'), '--queue'], env)
      .result;
    expect(queued.code, queued.stdout + queued.stderr).toBe(0);
    expect(queued.stdout).toContain('4 selected: 4 rendered');
    const { rows } = await database!.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'export-application-pdf' AND state = 'completed'`,
    );
    expect(rows[0]!.n).toBe(4);
  });
});
