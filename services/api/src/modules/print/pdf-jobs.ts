// Application PDFs as pg-boss jobs (queue render-application-pdf): the worker renders the current
// version, stores it, and records it if its generation is still the current one.
import type { Logger } from 'pino';
import { SERVICE_MESSAGES } from '@admissions/api-contract';
import {
  sendJob,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../../platform/queue/job-queue';
import { isSandboxLimit } from '../../platform/sandbox/sandbox-pool';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createApplicationPdfKey } from './pdf-keys';
import { renderApplication, type RenderDeps } from './render-application';
import type { PdfAudience, PdfStore } from './pdf-store';

/** Two retries (storage or renderer trouble); the last failure is recorded as FAILED. */
export const PDF_QUEUE: QueueDefinition = {
  name: 'render-application-pdf',
  options: { retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: 5 * 60 },
};

export interface PdfJob {
  applicationId: string;
  audience: PdfAudience;
  token: string;
}

export interface PdfWorkerDeps extends RenderDeps {
  store: PdfStore;
  logger: Logger;
}

export async function enqueuePdfJob(queue: JobQueue, job: PdfJob): Promise<void> {
  await sendJob(queue, PDF_QUEUE.name, job);
}

async function removeQuietly(storage: StorageDriver, key: string | null, logger: Logger) {
  if (!key) return;
  try {
    await storage.delete(key);
  } catch (error) {
    logger.warn({ err: error }, 'could not remove a stored PDF');
  }
}

/** Runs one generation; throws (for a retry) unless this is the last attempt. */
export async function runPdfJob(
  deps: PdfWorkerDeps,
  job: PdfJob,
  lastAttempt: boolean,
): Promise<void> {
  const { store, storage, clock, logger } = deps;
  // A job queued before rounds named the applicant (`userId`), whose id migration 0014 kept as
  // their application's: it still finds it.
  const stored = job as Partial<PdfJob> & { userId?: string };
  job = { ...job, applicationId: stored.applicationId ?? stored.userId ?? '' };
  const claimed = await store.claim(job.applicationId, job.audience, job.token, clock.now());
  if (!claimed) return; // superseded by a newer version, or restarted
  const started = performance.now();
  try {
    const rendered = await renderApplication(deps, job.applicationId, job.audience);
    const key = createApplicationPdfKey(job.applicationId, job.audience);
    await storage.write(key, rendered.bytes, 'application/pdf');
    const result = await store.complete({
      applicationId: job.applicationId,
      audience: job.audience,
      token: job.token,
      version: rendered.version,
      storageKey: key,
      pdfSize: rendered.bytes.length,
      shown: rendered.shown,
      now: clock.now(),
    });
    if (result === 'stale') {
      await removeQuietly(storage, key, logger);
      return;
    }
    await removeQuietly(storage, result.previousKey, logger);
    logger.info(
      {
        audience: job.audience,
        version: rendered.version,
        bytes: rendered.bytes.length,
        ms: Math.round(performance.now() - started),
      },
      'application PDF generated',
    );
  } catch (error) {
    if (isSandboxLimit(error)) {
      // The same content would pass the same limit again: no retry. This process is unharmed
      // (the render ran in a child, which was killed and has already been replaced).
      logger.error(
        { err: error, limit: error.limit, audience: job.audience },
        'application PDF render killed by a sandbox limit; the job fails without a retry',
      );
    } else if (!lastAttempt) {
      logger.warn({ err: error }, 'application PDF failed; will retry');
      throw error;
    } else {
      // The real reason stays in the log; the applicant gets a message they can act on.
      logger.error({ err: error }, 'application PDF failed for good');
    }
    const result = await store.fail(
      job.applicationId,
      job.audience,
      job.token,
      SERVICE_MESSAGES.pdfFailed,
      clock.now(),
    );
    if (result !== 'stale') await removeQuietly(storage, result.previousKey, logger);
  }
}

/** Starts the PDF workers; returns a stop function. */
export async function startPdfWorker(
  queue: JobQueue,
  deps: PdfWorkerDeps,
  concurrency: number,
): Promise<() => Promise<void>> {
  for (let i = 0; i < concurrency; i++) {
    await workJobs<PdfJob>(
      queue,
      PDF_QUEUE.name,
      { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true },
      async ([job]) => {
        if (!job) return;
        await runPdfJob(deps, job.data, job.retryCount >= job.retryLimit);
      },
    );
  }
  return async () => {
    await queue.offWork(PDF_QUEUE.name);
  };
}
