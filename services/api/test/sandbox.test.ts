// The sandbox pool (src/sandbox): each limit kills the child and names itself in a typed error,
// a dead child is replaced at once, errors keep their type across the process boundary, and the
// children die with their parent. Real child processes, real /proc accounting.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxTaskError } from '../src/platform/sandbox/serialized-error';
import {
  SandboxCrashError,
  SandboxLimitError,
  createSandboxPool,
  type SandboxOptions,
  type SandboxPool,
} from '../src/platform/sandbox/sandbox-pool';
import { processExists } from './support/pdf-inspect';

const TASKS = new URL('./support/sandbox-test-tasks.ts', import.meta.url).pathname;
const logger = pino({ level: 'silent' });

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

let pools: SandboxPool[] = [];
function startPool(options: Partial<SandboxOptions> = {}): SandboxPool {
  const pool = createSandboxPool({
    size: 1,
    memoryMb: 256,
    cpuMs: 10_000,
    timeoutMs: 30_000,
    recycleAfter: 100,
    logger,
    tasksModules: [TASKS],
    ...options,
  });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
}

// Generous time-outs: the machine running the tests may be busy, and each child starts a Node.
describe('sandbox pool', { timeout: 180_000 }, () => {
  it("runs tasks in a child process and returns bytes and the task's errors with their code", async () => {
    const pool = startPool();
    const pid = await pool.run<number>('pid', null);
    expect(pid).not.toBe(process.pid);
    const bytes = new Uint8Array([1, 2, 3, 250]);
    expect(await pool.run<Uint8Array>('echo', bytes)).toEqual(bytes);
    const error = await rejectionOf(pool.run('reject', null));
    // The child's error keeps its kind, code and detail (the feature turns it back into its own).
    expect(error).toBeInstanceOf(SandboxTaskError);
    expect((error as SandboxTaskError).name).toBe('DocumentRejectedError');
    expect((error as SandboxTaskError).code).toBe('UNREADABLE');
    expect((error as SandboxTaskError).detail).toBe('from a child');
  });

  it('kills a child whose native memory passes the ceiling and says so', async () => {
    const pool = startPool({ memoryMb: 200 });
    const pid = await pool.run<number>('pid', null);
    const error = await rejectionOf(pool.run('allocateNative', 400));
    expect(error).toBeInstanceOf(SandboxLimitError);
    expect((error as SandboxLimitError).limit).toBe('memory');
    expect((error as Error).message).toContain('memory ceiling');
    await waitFor(() => !processExists(pid));
    // The pool carries on with a fresh child.
    expect(await pool.run<number>('pid', null)).not.toBe(pid);
  });

  it('stops a child whose JavaScript heap passes the ceiling, as a memory limit', async () => {
    const pool = startPool({ memoryMb: 160 });
    const error = await rejectionOf(pool.run('allocateHeap', null));
    expect(error).toBeInstanceOf(SandboxLimitError);
    expect((error as SandboxLimitError).limit).toBe('memory');
  });

  it('kills a task past its CPU time, even in a synchronous loop', async () => {
    const pool = startPool({ cpuMs: 400 });
    const pid = await pool.run<number>('pid', null);
    const error = await rejectionOf(pool.run('spin', 60_000));
    expect(error).toBeInstanceOf(SandboxLimitError);
    expect((error as SandboxLimitError).limit).toBe('cpu');
    expect((error as Error).message).toContain('CPU-time limit');
    await waitFor(() => !processExists(pid));
  });

  it('kills a task past its wall-clock time although it uses no CPU', async () => {
    const pool = startPool({ timeoutMs: 500 });
    const error = await rejectionOf(pool.run('sleep', 60_000));
    expect(error).toBeInstanceOf(SandboxLimitError);
    expect((error as SandboxLimitError).limit).toBe('time');
  });

  it("removes the temporary files of a child killed mid-task, and a dead pool's", async () => {
    const pool = startPool({ timeoutMs: 500 });
    const file = await pool.run<string>('writeTemp', new Uint8Array([1, 2, 3]));
    expect(existsSync(file)).toBe(true);
    // Killed at its limit, the child never runs the task's own clean-up.
    await expect(pool.run('sleep', 5_000)).rejects.toBeInstanceOf(SandboxLimitError);
    await waitFor(() => !existsSync(file));

    // A server killed with -9 takes its children along and leaves their directories.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const abandoned = path.join(os.tmpdir(), `sandbox-${dead}-test`);
    mkdirSync(abandoned, { recursive: true });
    writeFileSync(path.join(abandoned, 'upload.pdf'), 'applicant');
    const live = path.join(os.tmpdir(), `sandbox-${process.pid}-test`);
    mkdirSync(live, { recursive: true });
    try {
      await startPool().run('pid', null);
      await waitFor(() => !existsSync(abandoned));
      expect(existsSync(live)).toBe(true);
    } finally {
      rmSync(live, { recursive: true, force: true });
    }
  });

  it('replaces a crashed child at once, before the next task is sent', async () => {
    const pool = startPool({ size: 2 });
    await Promise.all([pool.run('pid', null), pool.run('pid', null)]);
    const before = pool.pids();
    expect(before).toHaveLength(2);
    const error = await rejectionOf(pool.run('crash', null));
    expect(error).toBeInstanceOf(SandboxCrashError);
    expect((error as SandboxCrashError).exit.signal).toBe('SIGSEGV');
    // No task is sent: the replacement already exists.
    const after = pool.pids();
    expect(after).toHaveLength(2);
    const fresh = after.filter((pid) => !before.includes(pid));
    expect(fresh).toHaveLength(1);
    expect(processExists(fresh[0]!)).toBe(true);
  });

  it('recycles a child after its quota of tasks', async () => {
    const pool = startPool({ recycleAfter: 2 });
    const first = await pool.run<number>('pid', null);
    expect(await pool.run<number>('pid', null)).toBe(first);
    const third = await pool.run<number>('pid', null);
    expect(third).not.toBe(first);
    await waitFor(() => !processExists(first));
  });

  it('takes its children with it when the parent is killed with SIGKILL', async () => {
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./support/sandbox-parent.ts', import.meta.url).pathname],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: parent.stdout }).once('line', resolve);
        parent.once('exit', (code) => reject(new Error(`parent exited ${code}`)));
      });
      const pids = JSON.parse(line) as number[];
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(processExists(pid)).toBe(true);
      // One child is busy in a synchronous loop: only the kernel's death signal can end it.
      await sleep(300);
      parent.kill('SIGKILL');
      await waitFor(() => pids.every((pid) => !processExists(pid)));
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
