import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { isProcessAlive } from '../../../../platform/lib/process-alive';
import { convertInOneShotOffice } from './office-one-shot';
import {
  OfficeCrashedError,
  OfficeProcess,
  OfficeTimeoutError,
  OfficeUnavailableError,
} from './office-process';

export interface OfficePoolOptions {
  /** Number of LibreOffice processes (BENCHMARKS.md, measured before the code: one per core, one job at a time each). */
  size: number;
  /** Hard limit per conversion; past it the process group is killed and replaced. */
  timeoutMs: number;
  /** A process is retired (after its replacement is up) once it has converted this many files. */
  recycleAfter: number;
  /** Where profiles, TMPDIRs and job files go; everything under it is removed on close. */
  workDir?: string;
  logger: Logger;
}

export interface OfficePool {
  /** Converts a document's bytes to PDF bytes with the named LibreOffice import filter. */
  convert(input: Uint8Array, filter: string): Promise<Uint8Array>;
  /**
   * The same in a throw-away `soffice --convert-to` process (own profile, no network, same
   * time-out): the last resort for a document that crashed warm processes.
   */
  convertOneShot(input: Uint8Array, filter: string): Promise<Uint8Array>;
  /** Starts the processes now instead of on the first conversion. */
  warm(): Promise<void>;
  /** PIDs of the running soffice.bin processes (tests check none is left). */
  pids(): number[];
  close(): Promise<void>;
}

interface Slot {
  process?: OfficeProcess;
  starting?: Promise<OfficeProcess>;
  /** The process `starting` is waiting for, so that close() can kill it instead of waiting. */
  launching?: OfficeProcess;
  busy: boolean;
}

const OWNER_FILE = 'owner.pid';

/**
 * A pool's work directory (profiles, TMPDIRs, job files) is removed on close, but not when its
 * process was killed (kill -9, OOM): each such death left ~30 MB behind. A new pool removes the
 * directories beside its own whose owner process is gone. Directories without an owner file (an
 * older version's) are left alone.
 */
export async function removeAbandonedWorkDirs(parent: string, logger: Logger): Promise<number> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names.filter((n) => n.startsWith('office-pool-'))) {
    const dir = path.join(parent, name);
    let owner: number;
    try {
      owner = Number((await readFile(path.join(dir, OWNER_FILE), 'utf8')).trim());
    } catch {
      continue;
    }
    if (!Number.isInteger(owner) || owner <= 0 || isProcessAlive(owner)) continue;
    await rm(dir, { recursive: true, force: true });
    removed++;
  }
  if (removed > 0) logger.info({ removed }, 'removed work directories of dead LibreOffice pools');
  return removed;
}

/**
 * A small pool of warm LibreOffice processes. Processes start lazily on first use (or on warm()),
 * so a server that never converts never pays for them.
 */
export function createOfficePool(options: OfficePoolOptions): OfficePool {
  const { size, timeoutMs, recycleAfter, logger } = options;
  const slots: Slot[] = Array.from({ length: size }, () => ({ busy: false }));
  const waiting: ((slot: Slot) => void)[] = [];
  let root: string | undefined;
  let rootReady: Promise<string> | undefined;
  let closed = false;
  let jobCounter = 0;

  function ensureRoot(): Promise<string> {
    rootReady ??= (async () => {
      const parent = options.workDir ?? os.tmpdir();
      await mkdir(parent, { recursive: true });
      await removeAbandonedWorkDirs(parent, logger);
      root = await mkdtemp(path.join(parent, 'office-pool-'));
      await writeFile(path.join(root, OWNER_FILE), String(process.pid));
      return root;
    })();
    return rootReady;
  }

  async function startProcess(slot: Slot): Promise<OfficeProcess> {
    const dir = await ensureRoot();
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      if (closed) throw new OfficeUnavailableError('the conversion pool is closed');
      const office = new OfficeProcess(dir, logger);
      slot.launching = office;
      try {
        await office.start();
        logger.info(
          { office: office.id, pid: office.pid, ms: Date.now() - started },
          'LibreOffice started',
        );
        return office;
      } catch (error) {
        // A fresh profile sometimes makes the first start exit to restart itself.
        if (attempt >= 3 || closed) throw error;
        logger.warn({ err: error, attempt }, 'LibreOffice start failed; trying again');
      } finally {
        slot.launching = undefined;
      }
    }
  }

  function ensureProcess(slot: Slot): Promise<OfficeProcess> {
    if (slot.process?.alive) return Promise.resolve(slot.process);
    slot.starting ??= startProcess(slot).finally(() => (slot.starting = undefined));
    return slot.starting.then((office) => {
      if (closed) {
        void office.kill();
        throw new OfficeUnavailableError('the conversion pool is closed');
      }
      slot.process = office;
      return office;
    });
  }

  function acquire(): Promise<Slot> {
    const free = slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(slot: Slot) {
    const next = waiting.shift();
    if (next) next(slot);
    else slot.busy = false;
  }

  /** Replaces a process: start the new one first (BENCHMARKS.md), then retire the old one. */
  async function replace(slot: Slot, reason: string) {
    const old = slot.process;
    slot.process = undefined;
    logger.info({ office: old?.id, reason }, 'replacing LibreOffice');
    if (reason === 'recycle' && !closed) {
      try {
        await ensureProcess(slot);
      } finally {
        await old?.kill();
      }
    } else {
      await old?.kill();
      // A crashed or killed process is replaced at once, so the next job does not wait for it.
      if (!closed) {
        ensureProcess(slot).catch((error: unknown) =>
          logger.error({ err: error }, 'LibreOffice replacement failed to start'),
        );
      }
    }
  }

  return {
    async convert(input, filter) {
      if (closed) throw new OfficeUnavailableError('the conversion pool is closed');
      const dir = await ensureRoot();
      const jobDir = path.join(dir, `job-${++jobCounter}`);
      const slot = await acquire();
      const started = Date.now();
      try {
        const office = await ensureProcess(slot).catch((error: unknown) => {
          throw new OfficeUnavailableError('no LibreOffice process could be started', {
            cause: error,
          });
        });
        await mkdir(jobDir);
        const inPath = path.join(jobDir, 'input');
        const outPath = path.join(jobDir, 'output.pdf');
        await writeFile(inPath, input);
        try {
          await office.convert(inPath, outPath, filter, timeoutMs);
        } catch (error) {
          if (error instanceof OfficeTimeoutError || error instanceof OfficeCrashedError) {
            await replace(slot, error.name);
          }
          throw error;
        }
        const pdf = await readFile(outPath);
        logger.info(
          { office: office.id, ms: Date.now() - started, bytes: pdf.length },
          'docx converted',
        );
        if (office.conversions >= recycleAfter) await replace(slot, 'recycle');
        return pdf;
      } finally {
        await rm(jobDir, { recursive: true, force: true });
        release(slot);
      }
    },
    async convertOneShot(input, filter) {
      if (closed) throw new OfficeUnavailableError('the conversion pool is closed');
      const dir = await ensureRoot();
      const started = Date.now();
      const pdf = await convertInOneShotOffice(input, filter, { workDir: dir, timeoutMs });
      logger.info({ ms: Date.now() - started, bytes: pdf.length }, 'docx converted (one-shot)');
      return pdf;
    },
    async warm() {
      await Promise.all(slots.map((slot) => ensureProcess(slot)));
    },
    pids() {
      return slots.flatMap((s) => (s.process?.alive && s.process.pid ? [s.process.pid] : []));
    },
    async close() {
      closed = true;
      // A start from a fresh profile takes seconds (more on a busy machine): waiting for it made a
      // SIGTERM right after boot outlast SHUTDOWN_TIMEOUT_MS and exit 1. Killed, it ends at once.
      await Promise.all(slots.map((s) => s.launching?.kill()));
      await Promise.allSettled(slots.map((s) => s.starting));
      await Promise.all(slots.map((s) => s.process?.kill()));
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}
