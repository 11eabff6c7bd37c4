// `npm run build -w services/api` and `npm start`'s build-if-stale.mjs agree on what is built:
// the build writes the fingerprint the start checks, so the next start does not build again; and a
// start (or `npm run cli`) arriving while a build runs waits for it instead of building dist/
// under it (esbuild failed with `spawn ETXTBSY` when two builds rewrote the same files).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const lockFile = path.join(root, 'services/api/dist.build-lock');

function run(args: string[]) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, output })),
  );
  return { done };
}

describe('the service build', () => {
  it('leaves the fingerprint the start checks, and a start during a build waits for it', async () => {
    const build = run(['services/api/scripts/build.mjs']);
    // The build holds its lock; the start begins meanwhile.
    for (let i = 0; i < 600 && !existsSync(lockFile); i++) await delay(50);
    expect(existsSync(lockFile)).toBe(true);
    const start = run(['scripts/build-if-stale.mjs', 'api']);
    const built = await build.done;
    expect(built.code, built.output).toBe(0);
    const started = await start.done;
    expect(started.code, started.output).toBe(0);
    expect(started.output).toContain('waiting for the build in progress');
    // Piped, an up-to-date start says nothing; one that builds says so.
    expect(started.output).not.toContain('building');
    expect(existsSync(lockFile)).toBe(false);
    // And the next start too.
    const again = await run(['scripts/build-if-stale.mjs', 'api']).done;
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain('building');
  }, 300_000);
});
