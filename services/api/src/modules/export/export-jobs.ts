// --queue: each application becomes a pg-boss job (queue export-application-pdf) that any worker
// process runs (`npm run cli -- worker`, or the server's in-process worker on the embedded
// database): it renders the staff PDF with the same renderer, stores it in the storage driver
// and completes the job with the key and hash. The CLI polls the jobs, fetches each PDF from
// storage, checks its hash, deletes the stored copy and writes the file. Several machines can
// share the work when they share the database and the storage (S3).
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../../platform/db/connect';
import {
  sendJob,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../../platform/queue/job-queue';
import { createApplicationPdfKey, type PageCountingRenderer, type RenderDeps } from '../print';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import {
  createApplicationRenderer,
  RenderCancelledError,
  type ApplicationRenderer,
} from './render';

export const EXPORT_QUEUE = 'export-application-pdf';
const MAX_PDF_BYTES = 256 * 1024 * 1024;

export interface ExportJob {
  applicationId: string;
}

export type ExportJobOutput =
  | {
      ok: true;
      key: string;
      version: number;
      pages: number;
      documents: string[];
      sha256: string;
      bytes: number;
    }
  | { ok: false; error: string };

/**
 * Retries are for storage trouble; an application that cannot be rendered completes as
 * { ok: false } at once.
 */
export const EXPORT_QUEUE_DEFINITION: QueueDefinition = {
  name: EXPORT_QUEUE,
  options: { retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: 5 * 60 },
};

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface ExportWorkerDeps extends Omit<RenderDeps, 'render'> {
  database: Database;
  layout: PageCountingRenderer;
  logger: Logger;
}

/**
 * Registers the export job on this process's queue; returns a stop function. `loops` jobs run
 * at once. Layout is CPU-bound, but a pg-boss loop that finishes a job in less than its polling
 * interval (0.5 s, the minimum) waits out the rest before fetching again, so one loop does at most
 * two ~150 ms renders a second; four keep a core busy and overlap the database and storage reads.
 */
export async function startExportWorker(
  queue: JobQueue,
  deps: ExportWorkerDeps,
  loops = 4,
): Promise<() => Promise<void>> {
  const render = createApplicationRenderer(deps, deps.layout);
  const handle = async (job: ExportJob): Promise<ExportJobOutput> => {
    let rendered;
    try {
      rendered = await render(job.applicationId);
    } catch (error) {
      deps.logger.warn({ err: error }, 'export render failed');
      return { ok: false, error: (error as Error).message || 'render failed' };
    }
    // Storage trouble throws: pg-boss retries the job.
    const key = createApplicationPdfKey(job.applicationId, 'export');
    await deps.storage.write(key, rendered.bytes, 'application/pdf');
    return {
      ok: true,
      key,
      version: rendered.version,
      pages: rendered.pages,
      documents: rendered.documents,
      sha256: sha256(rendered.bytes),
      bytes: rendered.bytes.length,
    };
  };
  for (let i = 0; i < loops; i++) {
    await workJobs<ExportJob>(
      queue,
      EXPORT_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        if (!job) throw new Error('empty batch');
        return handle(job.data);
      },
    );
  }
  return async () => {
    await queue.offWork(EXPORT_QUEUE);
  };
}

interface Waiting {
  applicationId: string;
  sentAt: number;
  resolve: (value: Awaited<ReturnType<ApplicationRenderer>>) => void;
  reject: (error: Error) => void;
}

interface JobRow {
  id: string;
  state: string;
  output: unknown;
}

export interface QueueRendererDeps {
  queue: JobQueue;
  storage: StorageDriver;
  signal?: AbortSignal;
  onNote?: (message: string) => void;
  pollMs?: number;
  /** Warn when no worker has taken a job for this long. */
  idleWarningMs?: number;
}

/** An ApplicationRenderer that hands each application to the job workers. */
export function createQueueRenderer(deps: QueueRendererDeps): ApplicationRenderer {
  const { queue, storage } = deps;
  const pollMs = deps.pollMs ?? 250;
  const idleWarningMs = deps.idleWarningMs ?? 30_000;
  const waiting = new Map<string, Waiting>();
  let timer: NodeJS.Timeout | null = null;
  let lastProgress = Date.now();
  let warned = false;

  const settle = async (id: string, w: Waiting, row: JobRow) => {
    waiting.delete(id);
    lastProgress = Date.now();
    try {
      if (row.state === 'cancelled') throw new RenderCancelledError();
      const output = row.output as ExportJobOutput | { message?: string } | null;
      if (row.state === 'failed' || !output || !('ok' in output)) {
        const message = output && 'message' in output ? output.message : undefined;
        throw new Error(`export job failed: ${message ?? 'no result'}`);
      }
      if (!output.ok) throw new Error(output.error);
      const bytes = await storage.read(output.key, MAX_PDF_BYTES);
      if (!bytes) throw new Error('the rendered PDF is missing from storage');
      await storage.delete(output.key).catch(() => undefined);
      if (sha256(bytes) !== output.sha256) throw new Error('the rendered PDF changed in storage');
      w.resolve({
        bytes,
        version: output.version,
        pages: output.pages,
        documents: output.documents,
      });
    } catch (error) {
      w.reject(error as Error);
    }
  };

  const poll = async () => {
    timer = null;
    const ids = [...waiting.keys()];
    if (ids.length === 0) return;
    try {
      // Through pg-boss's API, not its tables: finished jobs keep state and output until archived.
      const rows: JobRow[] = [];
      for (const id of ids) {
        const job = await queue.getJobById<ExportJob>(EXPORT_QUEUE, id);
        if (job) rows.push({ id, state: job.state, output: job.output });
      }
      let anyActive = false;
      const settling: Promise<void>[] = [];
      for (const row of rows) {
        const w = waiting.get(row.id);
        if (!w) continue;
        if (['completed', 'failed', 'cancelled'].includes(row.state)) {
          settling.push(settle(row.id, w, row));
        } else if (row.state === 'active') {
          anyActive = true;
        }
      }
      await Promise.all(settling);
      if (anyActive) lastProgress = Date.now();
      if (!warned && waiting.size > 0 && Date.now() - lastProgress > idleWarningMs) {
        warned = true;
        deps.onNote?.(
          `No worker has taken an export job for ${Math.round(idleWarningMs / 1000)} s: is ` +
            '`npm run cli -- worker` running (on the embedded database: the server)?',
        );
      }
    } catch (error) {
      deps.onNote?.(`polling the export jobs failed (will retry): ${(error as Error).message}`);
    }
    schedule();
  };
  const schedule = () => {
    if (timer || waiting.size === 0) return;
    timer = setTimeout(() => void poll(), pollMs);
  };

  // Ctrl-C: jobs no worker has started yet are cancelled; started ones finish and are collected.
  deps.signal?.addEventListener('abort', () => {
    const ids = [...waiting.keys()];
    if (ids.length === 0) return;
    void (async () => {
      for (const id of ids) {
        const job = await queue.getJobById(EXPORT_QUEUE, id);
        if (job && (job.state === 'created' || job.state === 'retry')) {
          await queue.cancel(EXPORT_QUEUE, id);
        }
      }
    })().catch(() => undefined);
  });

  return async (applicationId) => {
    if (deps.signal?.aborted) throw new RenderCancelledError();
    const id = await sendJob(queue, EXPORT_QUEUE, { applicationId } satisfies ExportJob);
    if (!id) throw new Error('the job queue refused the export job');
    if (waiting.size === 0) lastProgress = Date.now();
    return new Promise((resolve, reject) => {
      waiting.set(id, { applicationId, sentAt: Date.now(), resolve, reject });
      schedule();
    });
  };
}
