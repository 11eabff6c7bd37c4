// A SIGTERM while the server is still starting (a first start creates the database: seconds).
// It used to end the process at once, wherever it was — mid-write to the embedded database, with
// the CLI's socket left in DATA_DIR. Now the start finishes (the signal is handled when the start
// next lets the event loop run), everything closes, and the next start finds the database whole.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCompiledService,
  buildEmbeddedEnv,
  findFreePort,
  nodeArgsFor,
  serviceScript,
} from './support/process-stack';

const apiDir = path.resolve(import.meta.dirname, '..');

function startServer(dataDir: string, port: number) {
  const child = spawn(process.execPath, nodeArgsFor(serviceScript('compiled', 'server')), {
    cwd: apiDir,
    env: buildEmbeddedEnv({
      port,
      dataDir,
      scratchDir: dataDir,
      env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json', SHUTDOWN_TIMEOUT_MS: '15000' },
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  const seen = (text: string) => messages.some((message) => message.includes(text));
  const waiters: { text: string; resolve: () => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      messages.push((JSON.parse(line) as { msg?: string }).msg ?? '');
    } catch {
      messages.push(line);
    }
    for (const waiter of waiters.filter((w) => seen(w.text))) waiter.resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    messages,
    exited,
    waitFor: (text: string) =>
      new Promise<void>((resolve) => (seen(text) ? resolve() : waiters.push({ text, resolve }))),
  };
}

// The compiled build: what `npm start` and the image run (the sources under tsx are only
// `npm run dev -w services/api`, a developer's).
describe('a stop during the start (compiled)', () => {
  beforeAll(() => {
    buildCompiledService();
  }, 300_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-start-stop-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lets the start finish, closes everything and exits 0', async () => {
    const port = await findFreePort();
    const first = startServer(dataDir, port);
    // PostgreSQL's initdb has begun writing the cluster: the service is still loading.
    const versionFile = path.join(dataDir, 'db', 'PG_VERSION');
    while (!existsSync(versionFile)) await delay(10);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.messages).toContain('stopped');
    // The CLI's socket went with it.
    expect(existsSync(path.join(dataDir, '.s.PGSQL.5432'))).toBe(false);

    const second = startServer(dataDir, port);
    try {
      await second.waitFor('Ready');
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 240_000);
});
