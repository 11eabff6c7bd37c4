// Conversions as pg-boss jobs. A bad document fails at once with its own message; anything else
// is retried, and after the retries ends as the service's failure ("try again in a few minutes")
// only when it is a known infrastructure failure (storage, database, a converter that is not
// running), otherwise as the document's (a failure that repeats on the same bytes). A sweeper
// fails conversions stuck past the time-out and removes blobs no row refers to.
import type { Logger } from 'pino';
import { DOCUMENT_MESSAGES, MESSAGES } from '@admissions/api-contract';
import { MAX_FILE_SIZE_BYTES } from '@admissions/form';
import {
  sendJob,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../../platform/queue/job-queue';
import type { Clock } from '../../platform/lib/clock';
import type { DocumentConverter } from './conversion/convert-document';
import {
  ConverterUnavailableError,
  isDocumentRejected,
  DocumentRejectedError,
} from './conversion/conversion-errors';
import {
  StoredObjectTooLargeError,
  type StorageDriver,
} from '../../platform/storage/storage-driver';
import { removeUnreferencedObjects } from '../../platform/storage/unreferenced-objects';
import type { ConversionRow, DocumentStore } from './document-store';
import {
  createDocumentKey,
  createThumbnailKey,
  DOCUMENT_PREFIX,
  UPLOAD_POLICY,
  UPLOAD_PREFIX,
} from './document-storage';
import type { DocumentPreviewer } from './document-preview';

export const CONVERSION_QUEUE_NAME = 'convert-document';

/**
 * How long a conversion job may stay active before pg-boss takes it back (and retries it): the
 * job of a worker that died (kill -9, OOM, lost host) is otherwise held for that long. Two
 * time-outs (a job may wait for a busy LibreOffice of the pool, then convert) plus 10 s for
 * storage and the database; a live worker never gets near it, its own time-out fires first.
 */
export function conversionExpirySeconds(conversionTimeoutMs: number): number {
  return Math.ceil((2 * conversionTimeoutMs) / 1000) + 10;
}

/**
 * Two retries, for infrastructure failures only (a bad document completes as FAILED), or when
 * the job's worker died and the expiry gave it back.
 */
export function defineConversionQueue(conversionTimeoutMs: number): QueueDefinition {
  return {
    name: CONVERSION_QUEUE_NAME,
    options: {
      retryLimit: 2,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: conversionExpirySeconds(conversionTimeoutMs),
    },
  };
}

export interface ConversionJob {
  applicationId: string;
  answerKey: string;
  token: string;
}

/**
 * The application a queued job names. Jobs queued before rounds named the applicant (`userId`),
 * whose id migration 0014 kept as their application's id: they still find it.
 */
function readJobApplicationId(job: ConversionJob): string {
  // The payload as pg-boss stored it, which may predate the field.
  const stored = job as Partial<ConversionJob> & { userId?: string };
  return stored.applicationId ?? stored.userId ?? '';
}

export interface ConversionWorkerDeps {
  queue: JobQueue;
  store: DocumentStore;
  storage: StorageDriver;
  converter: DocumentConverter;
  previewer: DocumentPreviewer;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  timeoutMs: number;
}

export async function enqueueConversion(queue: JobQueue, job: ConversionJob): Promise<void> {
  await sendJob(queue, CONVERSION_QUEUE_NAME, job);
}

async function removeQuietly(storage: StorageDriver, key: string | null, logger: Logger) {
  if (!key) return;
  try {
    await storage.delete(key);
  } catch (error) {
    logger.warn({ err: error }, 'could not remove a stored file');
  }
}

/** A step of the service itself failed (storage, database): not the document's fault. */
export class ServiceStepError extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`${step} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'ServiceStepError';
  }
}

/** Failures of the service rather than of the document (see the file comment). */
export function isInfrastructureFailure(error: unknown): boolean {
  return error instanceof ServiceStepError || error instanceof ConverterUnavailableError;
}

/** How long a job waits before trying again while another conversion of the applicant runs. */
export const BUSY_RETRY_SECONDS = 2;

/** Runs one conversion job; throws only for failures worth retrying. */
export async function runConversion(
  deps: Omit<ConversionWorkerDeps, 'queue' | 'concurrency' | 'timeoutMs'> & {
    /** Puts the job back for later (another conversion of the applicant runs). */
    requeue?: (job: ConversionJob) => Promise<void>;
  },
  job: ConversionJob,
  lastAttempt: boolean,
): Promise<void> {
  const { store, storage, converter, previewer, clock, logger } = deps;
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (isDocumentRejected(error)) throw error;
      throw new ServiceStepError(name, error);
    }
  };
  const row = await step('claim', () =>
    store.claimConversion(
      readJobApplicationId(job),
      job.answerKey,
      job.token,
      clock.now(),
      MESSAGES.alreadySubmitted,
    ),
  );
  if (!row) return; // replaced, deleted or swept meanwhile
  if (row === 'busy') {
    // One conversion at a time per applicant: this one waits its turn, it does not fail.
    if (deps.requeue) await step('requeue', () => deps.requeue!(job));
    else throw new ServiceStepError('claim', new Error('another conversion of the applicant runs'));
    return;
  }
  if ('frozenSourceKey' in row) {
    // Its application was submitted: the upload is not needed any more.
    await removeQuietly(storage, row.frozenSourceKey, logger);
    return;
  }
  const log = logger.child({ answerKey: row.answerKey });

  const fail = async (message: string) => {
    const result = await store.failConversion(row, message, clock.now(), MESSAGES.alreadySubmitted);
    if (result !== 'stale' && result !== 'frozen') {
      await removeQuietly(storage, result.removedPdfKey, log);
      await removeQuietly(storage, result.removedThumbnailKey, log);
    }
    await removeQuietly(storage, row.sourceKey, log);
  };

  try {
    let bytes: Uint8Array | null;
    try {
      bytes = await storage.read(row.sourceKey, MAX_FILE_SIZE_BYTES);
    } catch (error) {
      if (error instanceof StoredObjectTooLargeError)
        throw new DocumentRejectedError('FILE_TOO_LARGE');
      throw new ServiceStepError('storage read', error);
    }
    if (!bytes) {
      await fail(DOCUMENT_MESSAGES.uploadMissing);
      return;
    }
    const { pdf } = await converter.convert({ bytes, fileName: row.fileName });
    const pdfKey = createDocumentKey(row.applicationId, row.answerKey);
    await step('storage write', () => storage.write(pdfKey, pdf, 'application/pdf'));
    // The applicant's proof, drawn once from the PDF just stored: its page count and a picture
    // of its first page, kept beside it.
    const preview = await previewer.preview(pdf);
    const thumbnailKey = preview ? createThumbnailKey(pdfKey) : null;
    if (preview && thumbnailKey) {
      await step('storage write', () => storage.write(thumbnailKey, preview.png, 'image/png'));
    }
    const result = await step('store result', () =>
      store.completeConversion(
        row,
        {
          fileSize: bytes.length,
          pdfKey,
          pdfSize: pdf.length,
          pageCount: preview?.pageCount ?? null,
          thumbnailKey,
        },
        clock.now(),
        MESSAGES.alreadySubmitted,
      ),
    );
    if (result === 'stale' || result === 'frozen') {
      await removeQuietly(storage, pdfKey, log);
      await removeQuietly(storage, thumbnailKey, log);
      if (result === 'frozen') await removeQuietly(storage, row.sourceKey, log);
      return;
    }
    await removeQuietly(storage, result.previousPdfKey, log);
    await removeQuietly(storage, result.previousThumbnailKey, log);
    await removeQuietly(storage, row.sourceKey, log);
  } catch (error) {
    if (isDocumentRejected(error)) {
      await fail(error.userMessage);
      return;
    }
    if (lastAttempt) {
      const infrastructure = isInfrastructureFailure(error);
      log.error({ err: error, infrastructure }, 'conversion failed for good');
      await fail(
        infrastructure
          ? DOCUMENT_MESSAGES.conversionUnavailable
          : new DocumentRejectedError('CONVERSION_FAILED').userMessage,
      );
      return;
    }
    log.warn({ err: error }, 'conversion failed; will retry');
    throw error;
  }
}

/**
 * Fails conversions that have been pending for longer than a conversion may take plus the
 * time-out of the retries (a worker died mid-job, or the queue is stuck), and removes the blobs
 * of expired upload links.
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
      MESSAGES.alreadySubmitted,
    );
    if (result === 'stale') continue;
    logger.warn({ answerKey: row.answerKey }, 'conversion stuck past its time-out; failed');
    if (result !== 'frozen') {
      await removeQuietly(storage, result.removedPdfKey, logger);
      await removeQuietly(storage, result.removedThumbnailKey, logger);
    }
    await removeQuietly(storage, row.sourceKey, logger);
  }
  const expired = await store.takeExpiredUploads(clock.now());
  await removeAll(storage, expired, logger);
  return stuck.length;
}

/**
 * A blob younger than this may still be about to get its row: a conversion writes the PDF just
 * before the transaction that records it, and a link is recorded before its upload arrives.
 */
export function orphanGraceMs(timeoutMs: number): number {
  return Math.max(UPLOAD_POLICY.expiresInSeconds * 1000, stuckAfterMs(timeoutMs)) + 60_000;
}

/**
 * Removes every upload and document blob no row refers to (no link, no pending conversion, no
 * document answer) once it is older than the grace period: what a crash between two steps, or a
 * second upload to an S3 link, left behind. Walks the whole store in pages; returns the count.
 */
export async function sweepOrphanBlobs(
  deps: Pick<ConversionWorkerDeps, 'store' | 'storage' | 'clock' | 'logger' | 'timeoutMs'>,
): Promise<number> {
  const { store, storage, clock, logger } = deps;
  const removed = await removeUnreferencedObjects(storage, [UPLOAD_PREFIX, DOCUMENT_PREFIX], {
    before: new Date(clock.now().getTime() - orphanGraceMs(deps.timeoutMs)),
    listReferenced: (keys) => store.listReferencedKeys(keys),
    remove: (keys) => removeAll(storage, keys, logger),
  });
  if (removed > 0) logger.info({ removed }, 'removed stored files no answer refers to');
  return removed;
}

/** Deletes in parallel batches: thousands of expired links are gone in seconds, not hours. */
async function removeAll(storage: StorageDriver, keys: string[], logger: Logger) {
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(keys.slice(i, i + 16).map((key) => removeQuietly(storage, key, logger)));
  }
}

/** A pending conversion older than this is stuck: three attempts of the time-out plus slack. */
export function stuckAfterMs(timeoutMs: number): number {
  return 3 * timeoutMs + 60_000;
}

/** Starts `concurrency` pg-boss workers and the sweepers; returns a stop function. */
export async function startConversionWorker(
  deps: ConversionWorkerDeps,
): Promise<() => Promise<void>> {
  const { queue, concurrency, logger } = deps;
  const requeue = async (job: ConversionJob) => {
    await sendJob(queue, CONVERSION_QUEUE_NAME, job, { startAfter: BUSY_RETRY_SECONDS });
  };
  for (let i = 0; i < concurrency; i++) {
    await workJobs<ConversionJob>(
      queue,
      CONVERSION_QUEUE_NAME,
      { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true },
      async ([job]) => {
        if (!job) return;
        await runConversion({ ...deps, requeue }, job.data, job.retryCount >= job.retryLimit);
      },
    );
  }
  const sweep = () =>
    sweepStuckConversions(deps).catch((error: unknown) =>
      logger.error({ err: error }, 'conversion sweep failed'),
    );
  const timer = setInterval(() => void sweep(), Math.min(60_000, Math.max(1000, deps.timeoutMs)));
  timer.unref();
  // Listing the whole store is heavier than the indexed sweeps: a few times per grace period.
  const sweepOrphans = () =>
    sweepOrphanBlobs(deps).catch((error: unknown) =>
      logger.error({ err: error }, 'orphan sweep failed'),
    );
  const orphanTimer = setInterval(() => void sweepOrphans(), orphanGraceMs(deps.timeoutMs) / 4);
  orphanTimer.unref();
  return async () => {
    clearInterval(timer);
    clearInterval(orphanTimer);
    await queue.offWork(CONVERSION_QUEUE_NAME);
  };
}
