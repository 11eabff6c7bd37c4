import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'tests/artifacts');

/** One message of the outbox (README.md). */
export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

export interface MailCriteria {
  /** Compared case-insensitively: the server stores addresses lowercased. */
  to: string;
  subject?: RegExp;
  text?: RegExp;
  timeoutMs?: number;
}

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  outboxDir: string;
  /** The environment the server runs with, so a CLI command reads the same configuration. */
  env: NodeJS.ProcessEnv;
  /** The server's JSON log lines (stdout and stderr), kept under tests/artifacts. */
  logFile: string;
  /** The same output in memory, for failure messages. */
  output: string[];
  /**
   * The oldest message matching the criteria that this handle has not returned before, so two
   * consecutive codes to one address come back in order. Mail is sent by a background job,
   * hence the wait.
   */
  waitForMail(criteria: MailCriteria): Promise<OutboxMessage>;
  /**
   * Runs `npm run cli -- <args>` against this server's configuration (same DATA_DIR: on the
   * embedded database the CLI goes through the running server's socket). Rejects on a non-zero
   * exit with the command's output.
   */
  runCli(args: readonly string[]): Promise<CliResult>;
  stop(): Promise<void>;
}

export interface CliResult {
  stdout: string;
  stderr: string;
}

const CLI_TIMEOUT_MS = 60_000;
const EXIT_WITH_PARENT = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address) resolve(address.port);
        else reject(new Error('Could not find a free port'));
      });
    });
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the whole group is already gone, which is what we wanted.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function readOutbox(outboxDir: string): Promise<{ file: string; message: OutboxMessage }[]> {
  if (!existsSync(outboxDir)) return [];
  // Dot-files are the mailer's half-written temporaries; it renames them when complete.
  const files = (await readdir(outboxDir))
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort();
  return Promise.all(
    files.map(async (file) => ({
      file,
      message: JSON.parse(await readFile(path.join(outboxDir, file), 'utf8')) as OutboxMessage,
    })),
  );
}

/**
 * Starts services/api the way `npm start` does (it serves apps/web/dist), on a free port with a
 * throwaway DATA_DIR, on the embedded defaults: PGlite and the outbox instead of SMTP.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: {
    name?: string;
    /** A port chosen beforehand (a test's identity provider must know the callback URL). */
    port?: number;
  } = {},
): Promise<RunningServer> {
  if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
    throw new Error(
      'apps/web/dist/index.html is missing: build the SPA first with `npm run build -w apps/web` ' +
        '(the root `npm test` and `npm run test:e2e` expect a built SPA).',
    );
  }
  const port = options.port ?? (await findFreePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admissions-e2e-'));
  const outboxDir = path.join(dataDir, 'outbox');
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const logFile = path.join(ARTIFACTS_DIR, `server-${options.name ?? 'e2e'}.log`);

  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // A developer's shell or CI may point these at real services; the suite needs the outbox.
  delete childEnv.DATABASE_URL;
  delete childEnv.SMTP_URL;
  delete childEnv.REDIS_URL;
  Object.assign(childEnv, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'info',
    // Load shedding off, as in the API tests: the browser suite shares two cores with vitest,
    // and a second of event-loop lag there is the machine, not the product. Shedding has its
    // own test (services/api/test/scale.test.ts); a suite that wants it passes the variable.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // One LibreOffice, not one per core: the server starts its pool at boot, and most suites
    // convert nothing (each start from a fresh profile costs a few seconds of a core).
    OFFICE_POOL_SIZE: '1',
    ...env,
  });

  // The compiled service, as `npm start` runs it, with the exit-with-parent hook (plain JS).
  // Its own process group, so stop() also reaches anything the server starts (workers, soffice).
  ensureCompiledService();
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', '--import', EXIT_WITH_PARENT, 'services/api/dist/server.js'],
    { cwd: REPO_ROOT, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('Could not start the API server');

  const log = createWriteStream(logFile);
  const output: string[] = [];
  const capture = (chunk: Buffer) => {
    output.push(chunk.toString());
    log.write(chunk);
  };
  child.stdout.on('data', capture);
  child.stderr.on('data', capture);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // If the test runner exits mid-run, do not leave a server (and its database) behind; if it is
  // killed outright, the closed stdin pipe tells the server (see exit-with-parent.mjs).
  const killOnExit = () => killGroup(pid, 'SIGKILL');
  process.once('exit', killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    // The leader may be gone while a grandchild lingers in the group.
    killGroup(pid, 'SIGKILL');
    await new Promise<void>((resolve) => log.end(resolve));
    await rm(dataDir, { recursive: true, force: true });
  };

  const consumed = new Set<string>();
  const waitForMail = async ({ to, subject, text, timeoutMs = 15_000 }: MailCriteria) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const { file, message } of await readOutbox(outboxDir)) {
        if (consumed.has(file)) continue;
        if (message.to.toLowerCase() !== to.toLowerCase()) continue;
        if (subject && !subject.test(message.subject)) continue;
        if (text && !text.test(message.text)) continue;
        consumed.add(file);
        return message;
      }
      if (Date.now() > deadline) {
        const seen = (await readOutbox(outboxDir)).map(
          ({ message }) => `  ${message.to}: ${message.subject}`,
        );
        throw new Error(
          `No e-mail to ${to}${subject ? ` with subject ${String(subject)}` : ''} within ` +
            `${timeoutMs} ms. The outbox holds:\n${seen.join('\n') || '  (nothing)'}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) {
        const body = (await response.json()) as { status?: unknown };
        if (body.status === 'ok') {
          const runCli = (args: readonly string[]) => runCliWith(childEnv, args);
          return {
            baseUrl,
            dataDir,
            outboxDir,
            env: childEnv,
            logFile,
            output,
            waitForMail,
            runCli,
            stop,
          };
        }
      }
    } catch {
      // Not listening yet: PGlite creates its database on first start.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const exitNote =
    child.exitCode === null
      ? `not healthy after ${HEALTH_TIMEOUT_MS} ms`
      : `exited (${child.exitCode})`;
  await stop();
  throw new Error(
    `The API server ${exitNote}; its output (also in ${logFile}):\n${output.join('').slice(-4000)}`,
  );
}

let compiledChecked = false;
/** services/api/dist as the sources are now (built when stale; `npm test` builds it first). */
function ensureCompiledService(): void {
  if (compiledChecked) return;
  const result = spawnSync(process.execPath, ['scripts/build-if-stale.mjs', 'api'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (result.status !== 0) throw new Error(`building the service failed: ${String(result.stderr)}`);
  compiledChecked = true;
}

/**
 * The service's CLI as `npm run cli` starts it (services/api's compiled `dist/cli.js`, from that
 * workspace), without npm's own start-up cost.
 */
export function runCliWith(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    ensureCompiledService();
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/cli.js', ...args], {
      cwd: path.join(REPO_ROOT, 'services/api'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else {
        reject(
          new Error(
            `npm run cli -- ${args.join(' ')} exited with ${code ?? signal ?? '?'}:\n` +
              `${stdout}\n${stderr}`.trim(),
          ),
        );
      }
    });
  });
}
