// Conversions as pg-boss jobs: retried for infrastructure failures (storage, a crashed
// LibreOffice), never for a bad document; a sweeper fails conversions stuck past the time-out.
import type { Logger } from 'pino';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { MAX_FILE_SIZE_BYTES } from '@admissions/form';
import { QUEUES, type JobQueue } from '../jobs/queue';
import type { Clock } from '../lib/clock';
import type { DocumentConverter } from '../conversion/convert-document';
import { isDocumentRejected, DocumentRejectedError } from '../conversion/conversion-errors';
import {
  createDocumentKey,
  StoredObjectTooLargeError,
  type StorageDriver,
} from '../storage/storage-driver';
import type { ConversionRow, DocumentStore } from './document-store';

export interface ConversionJob {
  userId: string;
  answerKey: string;
  token: string;
}

export interface ConversionWorkerDeps {
  queue: JobQueue;
  store: DocumentStore;
  storage: StorageDriver;
  converter: DocumentConverter;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  timeoutMs: number;
}

export async function enqueueConversion(queue: JobQueue, job: ConversionJob): Promise<void> {
  await queue.send(QUEUES.convertDocument, job);
}

async function removeQuietly(storage: StorageDriver, key: string | null, logger: Logger) {
  if (!key) return;
  try {
    await storage.delete(key);
  } catch (error) {
    logger.warn({ err: error }, 'could not remove a stored file');
  }
}

/** Runs one conversion job; throws only for failures worth retrying. */
export async function runConversion(
  deps: Omit<ConversionWorkerDeps, 'queue' | 'concurrency' | 'timeoutMs'>,
  job: ConversionJob,
  lastAttempt: boolean,
): Promise<void> {
  const { store, storage, converter, clock, logger } = deps;
  const row = await store.claimConversion(job.userId, job.answerKey, job.token, clock.now());
  if (!row) return; // replaced, deleted or swept meanwhile
  const log = logger.child({ answerKey: row.answerKey });

  const fail = async (message: string) => {
    const result = await store.failConversion(row, message, clock.now());
    if (result !== 'stale') await removeQuietly(storage, result.removedPdfKey, log);
    await removeQuietly(storage, row.sourceKey, log);
  };

  try {
    let bytes: Uint8Array | null;
    try {
      bytes = await storage.read(row.sourceKey, MAX_FILE_SIZE_BYTES);
    } catch (error) {
      if (error instanceof StoredObjectTooLargeError)
        throw new DocumentRejectedError('FILE_TOO_LARGE');
      throw error;
    }
    if (!bytes) {
      await fail(DOCUMENT_MESSAGES.uploadMissing);
      return;
    }
    const { pdf } = await converter.convert({ bytes, fileName: row.fileName });
    const pdfKey = createDocumentKey(row.userId, row.answerKey);
    await storage.write(pdfKey, pdf, 'application/pdf');
    const result = await store.completeConversion(
      row,
      { fileSize: bytes.length, pdfKey, pdfSize: pdf.length },
      clock.now(),
    );
    if (result === 'stale') {
      await removeQuietly(storage, pdfKey, log);
      return;
    }
    await removeQuietly(storage, result.previousPdfKey, log);
    await removeQuietly(storage, row.sourceKey, log);
  } catch (error) {
    if (isDocumentRejected(error)) {
      await fail(error.userMessage);
      return;
    }
    if (lastAttempt) {
      log.error({ err: error }, 'conversion failed for good');
      await fail(DOCUMENT_MESSAGES.conversionUnavailable);
      return;
    }
    log.warn({ err: error }, 'conversion failed; will retry');
    throw error;
  }
}

/**
 * Fails conversions that have been pending for longer than a conversion may take plus the
 * time-out of the retries (a worker died mid-job, or the queue is stuck).
 */
export async function sweepStuckConversions(
  deps: Pick<ConversionWorkerDeps, 'store' | 'storage' | 'clock' | 'logger' | 'timeoutMs'>,
): Promise<number> {
  const { store, storage, clock, logger, timeoutMs } = deps;
  const cutoff = new Date(clock.now().getTime() - stuckAfterMs(timeoutMs));
  const stuck: ConversionRow[] = await store.listStuckConversions(cutoff);
  for (const row of stuck) {
    const result = await store.failConversion(
      row,
      DOCUMENT_MESSAGES.conversionUnavailable,
      clock.now(),
    );
    if (result === 'stale') continue;
    logger.warn({ answerKey: row.answerKey }, 'conversion stuck past its time-out; failed');
    await removeQuietly(storage, result.removedPdfKey, logger);
    await removeQuietly(storage, row.sourceKey, logger);
  }
  const expired = await store.takeExpiredUploads(clock.now());
  for (const key of expired) await removeQuietly(storage, key, logger);
  return stuck.length;
}

/** A pending conversion older than this is stuck: three attempts of the time-out plus slack. */
export function stuckAfterMs(timeoutMs: number): number {
  return 3 * timeoutMs + 60_000;
}

/** Starts `concurrency` pg-boss workers and the sweeper; returns a stop function. */
export async function startConversionWorker(
  deps: ConversionWorkerDeps,
): Promise<() => Promise<void>> {
  const { queue, concurrency, logger } = deps;
  for (let i = 0; i < concurrency; i++) {
    await queue.work<ConversionJob>(
      QUEUES.convertDocument,
      { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true },
      async ([job]) => {
        if (!job) return;
        await runConversion(deps, job.data, job.retryCount >= job.retryLimit);
      },
    );
  }
  const sweep = () =>
    sweepStuckConversions(deps).catch((error: unknown) =>
      logger.error({ err: error }, 'conversion sweep failed'),
    );
  const timer = setInterval(() => void sweep(), Math.min(60_000, Math.max(1000, deps.timeoutMs)));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await queue.offWork(QUEUES.convertDocument);
  };
}
