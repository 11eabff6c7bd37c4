// `npm start` (the quick start) and `npm run cli -- worker` (the scale-out topology), stopped the
// way a supervisor stops what it started: one SIGTERM to the process it started, npm. npm passes a
// signal on to its child only; when that child was a shell running the script, the shell died and
// the server or worker below it ran on, orphaned, holding the port, the embedded database or its
// jobs. The scripts now exec, so the signal reaches the server and the worker.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildEmbeddedEnv, createScratchDatabase, findFreePort } from './support/process-stack';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm <args>` from the repository root, its process's JSON log lines collected as they come. */
function runNpm(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(npm, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const messages: { msg?: string; pid?: number }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      messages.push(JSON.parse(line) as { msg?: string; pid?: number });
    } catch {
      // npm's own lines and the build's progress are not the process's log.
    }
  });
  /** The pid of the process that logged a message starting with `text`, once it has. */
  const waitForPid = async (text: string) => {
    for (let i = 0; i < 1200; i++) {
      const found = messages.find((m) => m.msg?.startsWith(text));
      if (found) return found.pid;
      await delay(100);
    }
    return undefined;
  };
  /** SIGTERM to npm; whether `pid` is gone within 15 s. */
  const stop = async (pid: number) => {
    child.kill('SIGTERM');
    for (let i = 0; i < 150 && isAlive(pid); i++) await delay(100);
    return !isAlive(pid);
  };
  return { exited, messages, waitForPid, stop };
}

describe('npm start and SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'npm-start-signal-'));
  const leftovers: number[] = [];

  afterAll(() => {
    for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the server when npm, the process a supervisor started, gets SIGTERM', async () => {
    const port = await findFreePort();
    const env = buildEmbeddedEnv({
      port,
      dataDir,
      scratchDir: dataDir,
      env: { HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    });
    const server = runNpm(['start'], env);
    const serverPid = await server.waitForPid('Ready');
    expect(serverPid, 'the server logged its Ready line').toBeTypeOf('number');
    leftovers.push(serverPid!);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

    expect(await server.stop(serverPid!), 'the server is still running after 15 s').toBe(true);
    expect(server.messages.some((m) => m.msg === 'stopped')).toBe(true);
    await server.exited;
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  }, 180_000);

  it.skipIf(!inject('postgresUrl'))(
    'stops a worker started with npm run cli -- worker when npm gets SIGTERM',
    async () => {
      const database = await createScratchDatabase(inject('postgresUrl')!, 'npmworker');
      try {
        const env = {
          ...buildEmbeddedEnv({ port: 0, dataDir, scratchDir: dataDir }),
          DATABASE_URL: database.url,
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
        };
        const worker = runNpm(['run', 'cli', '--', 'worker'], env);
        const workerPid = await worker.waitForPid('worker started');
        expect(workerPid, 'the worker logged that it started').toBeTypeOf('number');
        leftovers.push(workerPid!);

        expect(await worker.stop(workerPid!), 'the worker is still running after 15 s').toBe(true);
        expect(worker.messages.some((m) => m.msg === 'stopped')).toBe(true);
        await worker.exited;
      } finally {
        await database.drop();
      }
    },
    180_000,
  );
});
