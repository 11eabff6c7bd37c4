// A pool of child processes that run named tasks on an applicant's bytes (parse, decode, convert,
// render) away from the API's event loop, each task held to a memory ceiling, a CPU-time limit and
// a wall-clock limit. A child past a limit is killed (SIGKILL) and the task rejected with a
// SandboxLimitError naming the limit; a child that exits for any reason is replaced at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { reviveError, type SerializedError } from './serialized-error';
import { locateEntry, RUNNING_COMPILED } from '../service-root';
import { isProcessAlive } from '../lib/process-alive';

export type SandboxLimit = 'memory' | 'cpu' | 'time';

const LIMIT_WORDS: Record<SandboxLimit, string> = {
  memory: 'memory ceiling',
  cpu: 'CPU-time limit',
  time: 'wall-clock limit',
};

/** A task passed one of its limits and its child was killed. */
export class SandboxLimitError extends Error {
  constructor(
    readonly limit: SandboxLimit,
    readonly task: string,
    detail: string,
  ) {
    super(`sandbox task ${task} passed its ${LIMIT_WORDS[limit]} (${detail}) and was killed`);
    this.name = 'SandboxLimitError';
  }
}

/** The child running a task died by itself (a native crash, an abort): not one of our kills. */
export class SandboxCrashError extends Error {
  constructor(
    readonly task: string,
    readonly exit: { code: number | null; signal: NodeJS.Signals | null },
  ) {
    super(
      `sandbox child died during task ${task} (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`,
    );
    this.name = 'SandboxCrashError';
  }
}

export function isSandboxLimit(error: unknown): error is SandboxLimitError {
  return error instanceof SandboxLimitError;
}

export interface SandboxOptions {
  /** Children running tasks at once (one task per child). */
  size: number;
  /** Resident memory a child may reach (V8's heap and native memory such as libvips' together). */
  memoryMb: number;
  /** CPU time (user + system) one task may use. */
  cpuMs: number;
  /** Wall-clock time one task may take. */
  timeoutMs: number;
  /** A child is replaced after this many tasks (no state lingers from one applicant to many). */
  recycleAfter: number;
  logger: Logger;
  /**
   * The modules whose `SANDBOX_TASKS` the children run, by path (each feature module names its
   * own registry; see locateEntry for how the path survives the build).
   */
  tasksModules: string[];
  /** How often a busy child's memory and CPU time are read from /proc. */
  pollMs?: number;
  /** Scheduling priority of the children (0 = the parent's; see SERVICE_CHILD_NICENESS). */
  niceness?: number;
}

export interface RunOptions {
  /** Tighter (or looser) limits for this task than the pool's. */
  cpuMs?: number;
  timeoutMs?: number;
}

export interface SandboxPool {
  run<T>(task: string, input: unknown, options?: RunOptions): Promise<T>;
  /** Pids of the children alive now (tests, diagnostics). */
  pids(): number[];
  close(): Promise<void>;
}

interface Job {
  id: number;
  task: string;
  input: unknown;
  cpuMs: number;
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Child {
  process: ChildProcess;
  pid: number;
  ready: boolean;
  tasksRun: number;
  job: Job | null;
  /** utime+stime (ms) when the current job started. */
  cpuAtStart: number;
  timer: NodeJS.Timeout | null;
  /** Set when we killed it: its exit is then not a crash. */
  killedFor: SandboxLimitError | 'recycle' | 'close' | null;
  stderrTail: string;
  /** The child's own TMPDIR, removed when it exits. */
  tmpDir: string;
}

type ChildMessage =
  | { ready: true }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError };

const CHILD_ENTRY = locateEntry('src/platform/sandbox/sandbox-child.ts');
/** The niceness of the children of a process that also answers requests (the API, a worker). */
export const SERVICE_CHILD_NICENESS = 10;
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: fixed at 100 in the Linux ABI for /proc

/** Under tsx, the children need the same TypeScript loader (by absolute URL); the bundle does not. */
function typeScriptLoader(): string[] {
  if (RUNNING_COMPILED) return [];
  const require = createRequire(import.meta.url);
  return ['--import', pathToFileURL(require.resolve('tsx')).href];
}

/** Kernel-enforced: the child gets SIGKILL the moment this process dies, even by SIGKILL. */
function dieWithParent(): string[] {
  return existsSync('/usr/bin/setpriv') ? ['/usr/bin/setpriv', '--pdeathsig', 'KILL', '--'] : [];
}

/** A network namespace with nothing in it (needs root): a child never needs the network. */
function withoutNetwork(): string[] {
  return process.getuid?.() === 0 && existsSync('/usr/bin/unshare')
    ? ['/usr/bin/unshare', '-n', '--']
    : [];
}

/**
 * What a child may see of our environment: no secrets (SECRET_KEY, DATABASE_URL, S3 credentials)
 * where hostile bytes are parsed, only what Node and libvips need to run.
 */
function childEnvironment(tmpDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'TZ', 'HOME', 'NODE_ENV']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  env.TMPDIR = tmpDir;
  return env;
}

/**
 * A task writes the applicant's file to a temporary directory (convert-pdf's qpdf input) and
 * removes it when it ends, but a child killed at a limit never gets there. So each child gets its
 * own TMPDIR, named after the parent, removed with the child; the directories of a parent that
 * died itself (kill -9: its children die with it) are removed by the next pool to start.
 */
const TMP_PREFIX = 'sandbox-';

export async function removeAbandonedSandboxDirs(parent = os.tmpdir()): Promise<number> {
  let removed = 0;
  let names: string[] = [];
  try {
    names = await readdir(parent);
  } catch {
    return 0;
  }
  for (const name of names) {
    const owner = Number(new RegExp(`^${TMP_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!Number.isInteger(owner) || owner <= 0 || isProcessAlive(owner)) continue;
    await rm(path.join(parent, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** utime + stime of a process in ms, or null when it is gone. */
export function readCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Resident set size of a process in MiB, or null when it is gone. */
export function readRssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function createSandboxPool(options: SandboxOptions): SandboxPool {
  const { logger } = options;
  const size = Math.max(1, options.size);
  const pollMs = options.pollMs ?? 25;
  const niceness = options.niceness ?? 0;
  const command = [
    ...dieWithParent(),
    ...withoutNetwork(),
    process.execPath,
    ...typeScriptLoader(),
    `--max-old-space-size=${options.memoryMb}`,
    CHILD_ENTRY,
    ...options.tasksModules,
  ];
  const children: Child[] = [];
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;
  let started = false;
  let poller: NodeJS.Timeout | null = null;

  const kill = (child: Child, reason: Child['killedFor']) => {
    child.killedFor ??= reason;
    child.process.kill('SIGKILL');
  };

  const spawnChild = (): Child => {
    const [file, ...args] = command as [string, ...string[]];
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), `${TMP_PREFIX}${process.pid}-`));
    // Its stdout is a pipe of ours, never the server's own: a child given our stdout shares its
    // open file, and starting it makes that file blocking for us too (libuv does so for a child's
    // standard streams). The log destination's next write to a full pipe then blocks a thread of
    // the pool for good, and an exit, which waits for those threads, never ends.
    const proc = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: childEnvironment(tmpDir),
    });
    const child: Child = {
      process: proc,
      pid: proc.pid ?? -1,
      ready: false,
      tasksRun: 0,
      job: null,
      cpuAtStart: 0,
      timer: null,
      killedFor: null,
      stderrTail: '',
      tmpDir,
    };
    // Below the API in the scheduler: on a busy machine a request waits for a conversion's time
    // slice less often (the kernel still gives the children every idle cycle).
    if (proc.pid && niceness !== 0) {
      try {
        os.setPriority(proc.pid, niceness);
      } catch (error) {
        logger.warn({ err: error }, 'could not lower the priority of a sandbox child');
      }
    }
    // What a task's library prints goes to our stderr, never into the JSON log lines on stdout.
    proc.stdout?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    proc.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      child.stderrTail = (child.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    proc.on('message', (message: ChildMessage) => {
      if ('ready' in message) {
        child.ready = true;
        dispatch();
        return;
      }
      const job = child.job;
      if (!job || job.id !== message.id) return;
      finishJob(child);
      if (message.ok) job.resolve(message.value);
      else job.reject(reviveError(message.error));
      if (child.tasksRun >= options.recycleAfter) kill(child, 'recycle');
      else dispatch();
    });
    proc.on('error', (error) => {
      logger.error({ err: error }, 'sandbox child could not start');
    });
    proc.on('exit', (code, signal) => onExit(child, code, signal));
    children.push(child);
    return child;
  };

  const finishJob = (child: Child) => {
    if (child.timer) clearTimeout(child.timer);
    child.timer = null;
    child.job = null;
  };

  const removals = new Set<Promise<void>>();
  const onExit = (child: Child, code: number | null, signal: NodeJS.Signals | null) => {
    const index = children.indexOf(child);
    if (index >= 0) children.splice(index, 1);
    const removal = rm(child.tmpDir, { recursive: true, force: true })
      .catch((error: unknown) =>
        logger.warn({ err: error }, "could not remove a sandbox child's temporary files"),
      )
      .finally(() => removals.delete(removal));
    removals.add(removal);
    const job = child.job;
    finishJob(child);
    if (job) {
      let error: Error;
      if (child.killedFor instanceof SandboxLimitError) error = child.killedFor;
      else if (child.killedFor === 'close') error = new Error('the sandbox pool is closed');
      else if (/heap out of memory|Reached heap limit/.test(child.stderrTail)) {
        // V8 stopped at --max-old-space-size before the RSS ceiling was seen.
        error = new SandboxLimitError(
          'memory',
          job.task,
          `JavaScript heap of ${options.memoryMb} MB`,
        );
      } else error = new SandboxCrashError(job.task, { code, signal });
      if (error instanceof SandboxLimitError) {
        logger.warn({ task: job.task, limit: error.limit, pid: child.pid }, error.message);
      } else if (error instanceof SandboxCrashError) {
        logger.error({ task: job.task, code, signal, pid: child.pid }, error.message);
      }
      job.reject(error);
    } else if (!closed && child.killedFor !== 'recycle') {
      logger.warn({ code, signal, pid: child.pid }, 'idle sandbox child exited');
    }
    // Replaced now, not when the next task arrives: that task should not wait for a cold start.
    // A child that died before it was ready would die again at once: then not in a tight loop.
    if (!closed) {
      if (child.ready) spawnChild();
      else {
        logger.error({ code, signal, pid: child.pid }, 'sandbox child died while starting');
        setTimeout(() => {
          if (!closed) {
            spawnChild();
            dispatch();
          }
        }, 1000).unref();
      }
      dispatch();
    }
  };

  const startJob = (child: Child, job: Job) => {
    child.job = job;
    child.tasksRun++;
    child.cpuAtStart = readCpuMs(child.pid) ?? 0;
    child.timer = setTimeout(() => {
      kill(child, new SandboxLimitError('time', job.task, `${job.timeoutMs} ms`));
    }, job.timeoutMs);
    child.process.send({ id: job.id, task: job.task, input: job.input });
  };

  const dispatch = () => {
    for (const child of children) {
      if (waiting.length === 0) return;
      if (!child.ready || child.job || child.killedFor) continue;
      startJob(child, waiting.shift()!);
    }
  };

  // Reading two small /proc files per busy child: microseconds, so a short period is cheap.
  const poll = () => {
    for (const child of children) {
      const job = child.job;
      if (!job || child.killedFor) continue;
      const rss = readRssMb(child.pid);
      if (rss !== null && rss > options.memoryMb) {
        kill(
          child,
          new SandboxLimitError(
            'memory',
            job.task,
            `${Math.round(rss)} MB resident > ${options.memoryMb} MB`,
          ),
        );
        continue;
      }
      const cpu = readCpuMs(child.pid);
      if (cpu !== null && cpu - child.cpuAtStart > job.cpuMs) {
        kill(
          child,
          new SandboxLimitError(
            'cpu',
            job.task,
            `${Math.round(cpu - child.cpuAtStart)} ms CPU > ${job.cpuMs} ms`,
          ),
        );
      }
    }
  };

  // Children start on first use: a process that never converts or renders never forks.
  const start = () => {
    if (started) return;
    started = true;
    void removeAbandonedSandboxDirs().then(
      (removed) => {
        if (removed > 0) logger.info({ removed }, 'removed temporary files of dead sandbox pools');
      },
      (error: unknown) => logger.warn({ err: error }, 'could not look for dead sandbox pools'),
    );
    for (let i = 0; i < size; i++) spawnChild();
    poller = setInterval(poll, pollMs);
    poller.unref();
  };

  return {
    run<T>(task: string, input: unknown, runOptions: RunOptions = {}): Promise<T> {
      if (closed) return Promise.reject(new Error('the sandbox pool is closed'));
      start();
      return new Promise<T>((resolve, reject) => {
        waiting.push({
          id: nextId++,
          task,
          input,
          cpuMs: runOptions.cpuMs ?? options.cpuMs,
          timeoutMs: runOptions.timeoutMs ?? options.timeoutMs,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        dispatch();
      });
    },
    pids() {
      return children.filter((c) => !c.killedFor).map((c) => c.pid);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (poller) clearInterval(poller);
      for (const job of waiting.splice(0)) job.reject(new Error('the sandbox pool is closed'));
      const exits = children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.process.exitCode !== null || child.process.signalCode !== null) resolve();
            else child.process.once('exit', () => resolve());
          }),
      );
      for (const child of [...children]) kill(child, 'close');
      await Promise.all(exits);
      await Promise.all([...removals]);
    },
  };
}

/** The pool the service runs, sized and limited by the configuration (SANDBOX_*). */
export function createConfiguredSandbox(
  config: Pick<
    Config,
    | 'sandboxPoolSize'
    | 'sandboxMemoryMb'
    | 'sandboxCpuMs'
    | 'sandboxTimeoutMs'
    | 'sandboxRecycleAfter'
  >,
  logger: Logger,
  tasksModules: string[],
  overrides: { size?: number; niceness?: number } = {},
): SandboxPool {
  return createSandboxPool({
    tasksModules,
    size: overrides.size ?? config.sandboxPoolSize,
    niceness: overrides.niceness ?? SERVICE_CHILD_NICENESS,
    memoryMb: config.sandboxMemoryMb,
    cpuMs: config.sandboxCpuMs,
    timeoutMs: config.sandboxTimeoutMs,
    recycleAfter: config.sandboxRecycleAfter,
    logger,
  });
}
