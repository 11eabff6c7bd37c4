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

describe('npm start and SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'npm-start-signal-'));
  const leftovers: number[] = [];

  afterAll(() => {
    for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the server when npm, the process a supervisor started, gets SIGTERM', async () => {
    const port = await findFreePort();
    const child = spawn(npm, ['start'], {
      cwd: repoRoot,
      env: buildEmbeddedEnv({
        port,
        dataDir,
        scratchDir: dataDir,
        env: { HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const messages: { msg?: string; pid?: number }[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        messages.push(JSON.parse(line) as { msg?: string; pid?: number });
      } catch {
        // npm's own lines and the build's progress are not the server's log.
      }
    });
    const ready = () => messages.find((m) => m.msg?.startsWith('Ready'));
    for (let i = 0; i < 1200 && !ready(); i++) await delay(100);
    const serverPid = ready()?.pid;
    expect(serverPid, 'the server logged its Ready line').toBeTypeOf('number');
    leftovers.push(serverPid!);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

    child.kill('SIGTERM');
    for (let i = 0; i < 150 && isAlive(serverPid!); i++) await delay(100);
    expect(isAlive(serverPid!), 'the server is still running after 15 s').toBe(false);
    expect(messages.some((m) => m.msg === 'stopped')).toBe(true);
    await exited;
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
        const child = spawn(npm, ['run', 'cli', '--', 'worker'], {
          cwd: repoRoot,
          env,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        const messages: { msg?: string; pid?: number }[] = [];
        createInterface({ input: child.stdout! }).on('line', (line) => {
          try {
            messages.push(JSON.parse(line) as { msg?: string; pid?: number });
          } catch {
            // npm's own lines.
          }
        });
        const started = () => messages.find((m) => m.msg?.includes('worker started'));
        for (let i = 0; i < 1200 && !started(); i++) await delay(100);
        const workerPid = started()?.pid;
        expect(workerPid, 'the worker logged that it started').toBeTypeOf('number');
        leftovers.push(workerPid!);

        child.kill('SIGTERM');
        for (let i = 0; i < 150 && isAlive(workerPid!); i++) await delay(100);
        expect(isAlive(workerPid!), 'the worker is still running after 15 s').toBe(false);
        expect(messages.some((m) => m.msg === 'stopped')).toBe(true);
        await exited;
      } finally {
        await database.drop();
      }
    },
    180_000,
  );
});
