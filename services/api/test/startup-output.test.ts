// What a person sees in the terminal after `npm start`: one readable line saying where the
// application is and where its data goes, and no JSON or per-request chatter; log collectors
// (LOG_FORMAT=json) keep one JSON object per line.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCompiledService,
  buildEmbeddedEnv,
  findFreePort,
  launchProcess,
  serviceScript,
  waitUntilReady,
} from './support/process-stack';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

async function startEmbedded(format: 'text' | 'json') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'startup-output-'));
  folders.push(dataDir);
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir);
  const port = await findFreePort();
  const env = buildEmbeddedEnv({
    port,
    dataDir: path.join(dataDir, 'data'),
    scratchDir: dataDir,
    env: { LOG_FORMAT: format },
  });
  const server = launchProcess(`api-${format}`, [serviceScript('compiled', 'server')], env, logDir);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(server, async () => (await fetch(`${url}/health`)).status === 200);
    await fetch(`${url}/api/profile`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    await server.stop();
  }
  return {
    output: readFileSync(server.logFile, 'utf8'),
    dataDir: path.join(dataDir, 'data'),
    port,
  };
}

// The compiled build: what `npm start` and the image run (the sources under tsx are only
// `npm run dev -w services/api`, a developer's; running both cost CI a minute).
describe('start-up output (compiled)', () => {
  beforeAll(() => {
    buildCompiledService();
  }, 300_000);

  it('LOG_FORMAT=text prints one readable ready line and no per-request lines', async () => {
    const { output, dataDir, port } = await startEmbedded('text');
    const ready = output.split('\n').filter((line) => line.includes('Ready: '));
    expect(ready).toHaveLength(1);
    // One address to open: PUBLIC_URL's default for HOST=127.0.0.1, and no second address.
    expect(ready[0]).toContain(`Ready: open http://localhost:${port} · data`);
    expect(ready[0]).not.toContain('http://127.0.0.1');
    expect(ready[0]).toContain(`data ${dataDir}`);
    expect(ready[0]).toContain(`database embedded (${path.join(dataDir, 'db')})`);
    expect(ready[0]).toContain(`e-mail outbox (${path.join(dataDir, 'outbox')})`);
    expect(output).not.toMatch(/^\{"level"/m);
    expect(output).not.toContain('incoming request');
  }, 120_000);

  it('LOG_FORMAT=json keeps one JSON object per line, the ready line among them', async () => {
    const { output, dataDir } = await startEmbedded('json');
    // stdout and stderr share the file; Node's own warnings go to stderr as text.
    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ready = records.find((record) => String(record.msg).startsWith('Ready: '));
    expect(ready).toMatchObject({
      dataDir,
      database: `embedded (${path.join(dataDir, 'db')})`,
      publicUrl: expect.stringMatching(/^http:\/\/localhost:\d+$/),
      listening: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
    expect(records.some((record) => record.msg === 'request completed')).toBe(true);
  }, 120_000);
});
