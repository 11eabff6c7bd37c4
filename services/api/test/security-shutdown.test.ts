// The real server process whose stdout reader has gone away (the parent that read its logs died
// after falling behind): SIGTERM still ends it within SHUTDOWN_TIMEOUT_MS, and the LibreOffice
// and UNO bridge processes it started are gone too (not left as zombies or orphans).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inject } from 'vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { processExists } from './support/pdf-inspect';
import { createScratchDatabase, findFreePort } from './support/process-stack';
import { availableDrivers } from './support/test-runtime';

const apiDir = path.resolve(import.meta.dirname, '..');
const BUDGET_MS = 5000;

/** Every process below `pid`, by walking /proc's parent links (ps --ppid, recursively). */
function listDescendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    let children: number[] = [];
    try {
      children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(parent)])
        .toString()
        .split('\n')
        .map((line) => Number(line.trim()))
        .filter((n) => n > 0);
    } catch {
      // ps exits 1 when there are none.
    }
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

describe.each(availableDrivers())('shutdown with a dead log reader (%s)', (driver) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-epipe-'));
  let server: ChildProcess | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    if (server?.pid && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
    }
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits within SHUTDOWN_TIMEOUT_MS after SIGTERM and leaves no child processes', async () => {
    let databaseUrl: string | undefined;
    if (driver === 'postgres') {
      ({ url: databaseUrl, drop } = await createScratchDatabase(inject('postgresUrl')!, 'epipe'));
    }
    const port = await findFreePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: apiDir,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT_MS: String(BUDGET_MS),
        MAX_EVENT_LOOP_DELAY_MS: '0',
        GLOBAL_RATE_LIMIT: '1000000',
        OFFICE_POOL_SIZE: '1',
        WEB_DIST: path.join(dataDir, 'no-web-build'),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    const exit = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    let output = '';
    const read = (d: Buffer) => (output += d.toString());
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    for (let i = 0; i < 1200 && !output.includes('listening'); i++) await delay(100);
    expect(output).toContain('listening');
    // The LibreOffice pool starts at boot: wait for its soffice.bin to be among the children.
    let children: number[] = [];
    for (let i = 0; i < 300; i++) {
      children = listDescendants(child.pid!);
      const names = children.map((pid) => {
        try {
          return execFileSync('ps', ['-o', 'comm=', '-p', String(pid)])
            .toString()
            .trim();
        } catch {
          return '';
        }
      });
      if (names.includes('soffice.bin')) break;
      await delay(200);
    }

    // The reader falls behind (the pipe fills with request logs), then goes away altogether.
    child.stdout!.off('data', read);
    child.stdout!.pause();
    await Promise.all(
      Array.from({ length: 400 }, () =>
        fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }).catch(
          () => undefined,
        ),
      ),
    );
    child.stdout!.destroy();
    child.stderr!.destroy();
    await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) }).catch(
      () => undefined,
    );

    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const exited = await Promise.race([
      exit,
      delay(BUDGET_MS + 15_000).then(() => ({ code: null, at: Number.NaN })),
    ]);
    expect(exited.code).not.toBeNull();
    // A generous bound for a loaded machine; the hard exit is armed at the budget itself.
    expect(exited.at - signalledAt).toBeLessThan(BUDGET_MS + 3000);
    expect(children.length).toBeGreaterThan(0);
    for (let i = 0; i < 50 && children.some(processExists); i++) await delay(100);
    expect(children.filter(processExists)).toEqual([]);
  }, 180_000);
});
