// The service as it runs at scale, in real processes on this machine: N API processes
// (dist/server.js as `npm start` runs it with `compiled`, else the sources under tsx) and M job
// workers (`npm run cli -- worker`) sharing one PostgreSQL database, one DATA_DIR (blobs, outbox)
// and one SECRET_KEY, with the worker out of the API processes (RUN_WORKER_IN_PROCESS=false).
// Used by the load suite (bench/load-bench.ts, test/load.test.ts) and open to the fault suite. It
// imports nothing from vitest, so benchmarks can use it too.
//
// Two API processes are two ports, not one port shared through node:cluster. Node 20 has no
// SO_REUSEPORT, and a cluster primary would be a topology the product never runs (main.ts is one
// process per replica; docker/compose.yaml puts two replicas behind a balancer). A client that
// spreads its connections across `urls` (autocannon does this with several URLs: connection i
// goes to url i mod n) is what a balancer with keep-alive does, without a balancer process taking
// one of the two cores away from the service.
//
// Every process runs in its own process group (so a stop also reaches LibreOffice under the
// worker) with `tests/support/exit-with-parent.mjs` preloaded: when this process dies without
// calling stop(), the closed stdin pipe makes each child end its group. Output goes straight to a
// log file per process (not through this process, which may be busy generating load).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runCliWith } from '../../../../tests/support/server';
import type { OutboxMessage } from './test-runtime';

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
const EXIT_WITH_PARENT = fileURLToPath(
  new URL('../../../../tests/support/exit-with-parent.mjs', import.meta.url),
);
const START_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 15_000;

export interface ManagedProcess {
  /** `api-1`, `api-2`, `worker-1`, … */
  name: string;
  pid: number;
  /** Where its stdout and stderr go (JSON log lines). */
  logFile: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isRunning(): boolean;
  /** Sends a signal to the process's whole group (SIGKILL also takes LibreOffice with it). */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL to the group if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** The last part of its log, for failure messages. */
  tail(chars?: number): string;
}

export interface ProcessStackOptions {
  /** A migrated or empty database of its own (see createScratchDatabase); migrations run first. */
  databaseUrl: string;
  /** API processes (default 2). */
  apis?: number;
  /** `cli worker` processes (default 1). */
  workers?: number;
  /** One port per API process; free ports when omitted. */
  ports?: number[];
  /** Extra environment for every process (rate limits, LOG_LEVEL, …); wins over the defaults. */
  env?: Record<string, string>;
  /**
   * Run the compiled build (dist/server.js, dist/cli.js: what `npm start` and the image run; the
   * caller builds it with buildCompiledService) instead of the sources under tsx. Benchmarks
   * measure this.
   */
  compiled?: boolean;
}

export interface ProcessStack {
  /** One base URL per API process, e.g. `http://127.0.0.1:4201`. */
  urls: string[];
  dataDir: string;
  /** The environment every process got (a CLI run with it reads the same configuration). */
  env: NodeJS.ProcessEnv;
  apis: ManagedProcess[];
  /** Workers started so far, including stopped or killed ones. */
  workers: ManagedProcess[];
  /** Starts one more worker (e.g. to replace a killed one) and waits until it takes jobs. */
  startWorker(): Promise<ManagedProcess>;
  /** `npm run cli -- <args>` with the stack's configuration; rejects on a non-zero exit. */
  runCli(args: readonly string[]): Promise<{ stdout: string; stderr: string }>;
  /** Every complete message in DATA_DIR/outbox, oldest first. */
  readOutbox(): Promise<OutboxMessage[]>;
  /** Stops every process (SIGTERM, then SIGKILL) and removes DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * The environment of one server on the embedded default as `npm start` runs it, in its own
 * DATA_DIR: whatever the developer's shell points at other services (PostgreSQL, SMTP, Redis, S3,
 * a public address) is left out; no web build, one LibreOffice process.
 */
export function buildEmbeddedEnv(options: {
  port: number;
  dataDir: string;
  /** A folder of the caller's to name as the (absent) web build. */
  scratchDir: string;
  env?: NodeJS.ProcessEnv;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of [
    'DATABASE_URL',
    'SMTP_URL',
    'REDIS_URL',
    'S3_BUCKET',
    'S3_ENDPOINT',
    'PUBLIC_URL',
  ]) {
    delete env[name];
  }
  return Object.assign(env, {
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    WEB_DIST: path.join(options.scratchDir, 'no-web-build'),
    OFFICE_POOL_SIZE: '1',
  });
}

/** services/api/dist as `npm start` runs it, rebuilt first when its sources changed. */
export function buildCompiledService(): void {
  const result = spawnSync(process.execPath, ['../../scripts/build-if-stale.mjs', 'api'], {
    cwd: API_DIR,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('building the service failed');
}

/** Which form of the service a test runs: its TypeScript sources under tsx, or dist/ as shipped. */
export type ServiceBuild = 'source' | 'compiled';

/**
 * The script of `entry` in `build`, relative to services/api. A test that runs 'compiled' calls
 * buildCompiledService first (in beforeAll: it rebuilds only when the sources changed).
 */
export function serviceScript(build: ServiceBuild, entry: 'server' | 'cli'): string {
  return build === 'compiled' ? `dist/${entry}.js` : `src/boot/${entry}.ts`;
}

/** Node's arguments for a script of services/api: a compiled one as `npm start` runs it. */
export function nodeArgsFor(script: string): string[] {
  return [...(script.endsWith('.js') ? ['--enable-source-maps'] : ['--import', 'tsx']), script];
}

/**
 * Node's arguments for `npm run cli -- <args>` as it runs (services/api/dist/cli.js, from
 * services/api), without npm's own start-up. The API project's global setup builds dist/ when
 * stale. The CLI under tsx would compile its whole module graph again in every process, several
 * times the start-up of the bundle, and a CLI test starts dozens of them.
 */
export function cliNodeArgs(args: readonly string[]): string[] {
  return [...nodeArgsFor(serviceScript('compiled', 'cli')), ...args];
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

/** A new empty database on the server of `adminUrl`, and a function that drops it. */
export async function createScratchDatabase(
  adminUrl: string,
  prefix = 'stack',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the group is already gone.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function readTail(file: string, chars: number): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

/**
 * Starts `node --import tsx <script…>` from services/api in its own process group, dying with
 * this process, its output appended to `<logDir>/<name>.log`.
 */
export function launchProcess(
  name: string,
  script: readonly string[],
  env: NodeJS.ProcessEnv,
  logDir: string,
): ManagedProcess {
  const logFile = path.join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // A compiled script (dist/*.js, a bundled bench server) runs as `npm start` runs it.
    const [entry = '', ...rest] = script;
    const loader = nodeArgsFor(entry).slice(0, -1);
    child = spawn(process.execPath, [...loader, '--import', EXIT_WITH_PARENT, entry, ...rest], {
      cwd: API_DIR,
      env,
      stdio: ['pipe', fd, fd],
      detached: true,
    });
  } finally {
    closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`Could not start ${name}`);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    pid,
    logFile,
    exited,
    isRunning,
    signal: (signal) => signalGroup(pid, signal),
    async stop(graceMs = STOP_GRACE_MS) {
      if (isRunning()) {
        signalGroup(pid, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // The leader may be gone while a grandchild (soffice) lingers in its group.
      signalGroup(pid, 'SIGKILL');
    },
    tail: (chars = 4000) => readTail(logFile, chars),
  };
}

/** Resolves once `ready()` holds; rejects if the process exits first or time runs out. */
export async function waitUntilReady(
  what: ManagedProcess,
  ready: () => Promise<boolean>,
  timeoutMs = START_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!what.isRunning()) {
      throw new Error(`${what.name} exited during start-up:\n${what.tail()}`);
    }
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what.name} not ready after ${timeoutMs} ms:\n${what.tail()}`);
}

async function isHealthy(url: string): Promise<boolean> {
  const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
  if (response.status !== 200) return false;
  return ((await response.json()) as { status?: unknown }).status === 'ok';
}

/**
 * Migrates the database (`cli migrate`, once), then starts the API processes and the workers
 * together and resolves when every API answers GET /health with `{"status":"ok"}` and every worker
 * has logged "worker started". On any failure everything started is stopped again.
 */
export async function startProcessStack(options: ProcessStackOptions): Promise<ProcessStack> {
  const apiCount = options.apis ?? 2;
  const workerCount = options.workers ?? 1;
  const ports =
    options.ports ?? (await Promise.all(Array.from({ length: apiCount }, () => findFreePort())));
  if (ports.length !== apiCount)
    throw new Error(`${apiCount} API processes need ${apiCount} ports`);
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-stack-'));
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir);

  const env: NodeJS.ProcessEnv = { ...process.env };
  // A developer's shell may point these at other services; the stack is self-contained.
  for (const name of ['SMTP_URL', 'REDIS_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'PORT', 'INIT_CWD']) {
    delete env[name];
  }
  Object.assign(env, {
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: dataDir,
    // Shared by every process, as replicas must (cookies, sealed answers, upload policies).
    SECRET_KEY: randomBytes(32).toString('hex'),
    RUN_WORKER_IN_PROCESS: 'false',
    HOST: '127.0.0.1',
    // One public address for all replicas, as behind a balancer.
    PUBLIC_URL: urls[0] ?? 'http://127.0.0.1',
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    OFFICE_POOL_SIZE: '1',
    ...options.env,
  });

  const apis: ManagedProcess[] = [];
  const workers: ManagedProcess[] = [];
  const stopAll = async () => {
    await Promise.all([...apis, ...workers].map((p) => p.stop()));
  };
  const killOnExit = () => {
    for (const p of [...apis, ...workers]) p.signal('SIGKILL');
  };
  process.once('exit', killOnExit);

  const startWorker = async () => {
    const worker = launchProcess(
      `worker-${workers.length + 1}`,
      [serviceScript(options.compiled ? 'compiled' : 'source', 'cli'), 'worker'],
      env,
      logDir,
    );
    workers.push(worker);
    await waitUntilReady(worker, async () =>
      /"msg":"worker started"/.test(readTail(worker.logFile, 1e6)),
    );
    return worker;
  };

  try {
    await runCliWith(env, ['migrate']);
    ports.forEach((port, i) => {
      apis.push(
        launchProcess(
          `api-${i + 1}`,
          [serviceScript(options.compiled ? 'compiled' : 'source', 'server')],
          { ...env, PORT: String(port) },
          logDir,
        ),
      );
    });
    await Promise.all([
      ...apis.map((api, i) => waitUntilReady(api, () => isHealthy(urls[i]!))),
      ...Array.from({ length: workerCount }, () => startWorker()),
    ]);
  } catch (error) {
    await stopAll();
    process.removeListener('exit', killOnExit);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const outboxDir = path.join(dataDir, 'outbox');
  let stopped = false;
  return {
    urls,
    dataDir,
    env,
    apis,
    workers,
    startWorker,
    runCli: (args) => runCliWith(env, args),
    async readOutbox() {
      if (!existsSync(outboxDir)) return [];
      // Dot-files are the mailer's half-written temporaries; it renames them when complete.
      const files = (await readdir(outboxDir))
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .sort();
      return Promise.all(
        files.map(
          async (file) =>
            JSON.parse(await readFile(path.join(outboxDir, file), 'utf8')) as OutboxMessage,
        ),
      );
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopAll();
      process.removeListener('exit', killOnExit);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
