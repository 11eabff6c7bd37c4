// The real server process whose log reader never reads: its stdout is a pipe whose other end is
// held and never read, so once the pipe is full every write waits. Before issue #15 the server's
// synchronous log write then held the process: SIGTERM was never handled, the LibreOffice
// children were never reaped. The compiled build (what `npm start` and the image run) still
// outlived SIGTERM by minutes until issue #26: its sandbox child shared the server's stdout, which
// made that pipe blocking, and a log write stuck on it kept the exit waiting. Both builds run
// here; SIGTERM ends each within SHUTDOWN_TIMEOUT_MS and no process it started is left.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processExists } from './support/pdf-inspect';
import {
  buildCompiledService,
  createScratchDatabase,
  findFreePort,
  nodeArgsFor,
  serviceScript,
} from './support/process-stack';
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

// The compiled build on both drivers: what `npm start` and the image run, whose database closes
// differently on each (the sources under tsx are only `npm run dev -w services/api`).
describe.each(availableDrivers())(
  'shutdown with a log reader that never reads (compiled, %s)',
  (driver) => {
    beforeAll(() => {
      buildCompiledService();
    }, 300_000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-epipe-'));
    let server: ChildProcess | undefined;
    let drop: (() => Promise<void>) | undefined;

    afterAll(async () => {
      if (server?.pid && server.exitCode === null && server.signalCode === null) {
        // Its whole group: the server and the LibreOffice processes it started.
        try {
          process.kill(-server.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
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
      // Its stdout is a pipe this process holds and never reads (a log shipper that hung).
      const child = spawn(process.execPath, nodeArgsFor(serviceScript('compiled', 'server')), {
        cwd: apiDir,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
          SHUTDOWN_TIMEOUT_MS: String(BUDGET_MS),
          MAX_EVENT_LOOP_DELAY_MS: '0',
          GLOBAL_RATE_LIMIT: '1000000',
          OFFICE_POOL_SIZE: '1',
          WEB_DIST: path.join(dataDir, 'no-web-build'),
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
        // Started as a service manager would: its own session, stderr to /dev/null.
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
      });
      server = child;
      const exit = new Promise<{ code: number | null; at: number }>((resolve) =>
        child.once('exit', (code) => resolve({ code, at: Date.now() })),
      );
      const health = () =>
        fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }).then(
          (r) => r.status,
          () => 0,
        );
      let up = false;
      for (let i = 0; i < 1200 && !up; i++) {
        up = (await health()) === 200;
        if (!up) await delay(100);
      }
      expect(up).toBe(true);
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

      // Each request logs its URL: 400 of 6,000 characters are 2.4 MB of log lines, many times what
      // the pipe (a socket pair: a few hundred KiB) and this process's read-ahead take.
      const longPath = `/no-such-page/${'x'.repeat(6000)}`;
      for (let i = 0; i < 20; i++) {
        await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(`http://127.0.0.1:${port}${longPath}`).then(
              (r) => r.arrayBuffer(),
              () => null,
            ),
          ),
        );
      }
      expect(await health()).toBe(200);

      const signalledAt = Date.now();
      child.kill('SIGTERM');
      const exited = await Promise.race([
        exit,
        delay(BUDGET_MS + 15_000).then(() => ({ code: null, at: Number.NaN })),
      ]);
      expect(exited.code).toBe(0);
      // A generous bound for a loaded machine; the hard exit is armed at the budget itself.
      expect(exited.at - signalledAt).toBeLessThan(BUDGET_MS + 3000);
      expect(children.length).toBeGreaterThan(0);
      for (let i = 0; i < 50 && children.some(processExists); i++) await delay(100);
      expect(children.filter(processExists)).toEqual([]);
    }, 180_000);
  },
);
