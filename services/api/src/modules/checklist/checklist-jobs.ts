// Letters and requested files, converted as pg-boss jobs by the documents module's converter (the
// same sandboxed checks and LibreOffice as every upload). A refused file fails its slot with the
// converter's own message, and the recommender or applicant may send another; a failure of the
// service is retried, and after the retries says "try again in a few minutes".
import type { Logger } from 'pino';
import { CHECKLIST_MESSAGES, DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { MAX_FILE_SIZE_BYTES } from '@admissions/form';
import type { RootDb } from '../../platform/db/connect';
import type { Clock } from '../../platform/lib/clock';
import {
  sendJob,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../../platform/queue/job-queue';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { bumpChecklistVersion } from '../application';
import { isDocumentRejected, type DocumentConverter } from '../documents';
import {
  findRecommenderById,
  findRequestById,
  finishLetterConversion,
  finishRequestConversion,
  recordChecklistEvent,
} from './checklist-store';
import { requestItemId } from './checklist-rules';
import { recordChecklistWebhooks } from './checklist-webhooks';
import type { QueueWebhookDeliveries } from '../webhooks';

export interface ChecklistConversionJob {
  /** A recommender's letter, or a file the office asked the applicant for. */
  kind: 'letter' | 'material';
  /** The recommender's or the request's id. */
  id: string;
  /** The upload this job converts: a newer upload or a removal makes the job a no-op. */
  token: string;
}

export const CHECKLIST_CONVERSION_QUEUE: QueueDefinition = {
  name: 'convert-checklist-document',
  options: { retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 },
};

export async function enqueueChecklistConversion(
  queue: JobQueue,
  job: ChecklistConversionJob,
): Promise<void> {
  await sendJob(queue, CHECKLIST_CONVERSION_QUEUE.name, job);
}

export interface ChecklistConversionDeps {
  db: RootDb;
  storage: StorageDriver;
  converter: DocumentConverter;
  clock: Clock;
  logger: Logger;
  /** Queues the webhook deliveries of a received letter or file, once committed. */
  queueWebhooks: QueueWebhookDeliveries;
}

/** Runs one job; throws only for a failure worth retrying. */
export async function runChecklistConversion(
  deps: ChecklistConversionDeps,
  job: ChecklistConversionJob,
  lastAttempt: boolean,
): Promise<void> {
  const { db, storage, converter, clock, logger } = deps;
  const current =
    job.kind === 'letter'
      ? await findRecommenderById(db, job.id)
      : await findRequestById(db, job.id);
  if (!current || current.conversionToken !== job.token) return;
  if (current.conversionStatus !== 'converting') return;
  const sourceKey = 'letterSourceKey' in current ? current.letterSourceKey : current.sourceKey;
  const fileName = ('letterFileName' in current ? current.letterFileName : current.fileName) ?? '';
  const log = logger.child({ checklist: job.kind, id: job.id });

  const finish = (set: Record<string, unknown>) =>
    job.kind === 'letter'
      ? finishLetterConversion(db, job.id, job.token, set)
      : finishRequestConversion(db, job.id, job.token, set);
  const fail = async (message: string) => {
    await finish({ conversionStatus: 'failed', conversionMessage: message });
  };

  try {
    const bytes = sourceKey ? await storage.read(sourceKey, MAX_FILE_SIZE_BYTES) : null;
    if (!bytes) {
      await fail(DOCUMENT_MESSAGES.uploadMissing);
      return;
    }
    const { type, pdf } = await converter.convert({ bytes, fileName });
    // Letters and requested items are documents: a picture is refused here, after the sandbox
    // has told what the bytes are (the name's extension was only a first filter).
    if (type !== 'pdf' && type !== 'docx') {
      await fail(CHECKLIST_MESSAGES.fileTypeRefused);
      return;
    }
    const pdfKey = sourceKey!.replace(/\.src$/, '.pdf');
    await storage.write(pdfKey, pdf, 'application/pdf');
    const now = clock.now();
    // The webhook deliveries of the received item; null when it was replaced or removed meanwhile.
    const received = await db.transaction(async (tx) => {
      const row =
        job.kind === 'letter'
          ? await finishLetterConversion(tx, job.id, job.token, {
              letterPdfKey: pdfKey,
              conversionStatus: null,
              conversionMessage: null,
              submittedAt: now,
            })
          : await finishRequestConversion(tx, job.id, job.token, {
              pdfKey,
              conversionStatus: null,
              conversionMessage: null,
              receivedAt: now,
            });
      if (!row) return null;
      await recordChecklistEvent(tx, {
        applicationId: row.applicationId,
        action: job.kind === 'letter' ? 'letter-submitted' : 'material-received',
        actor: job.kind === 'letter' ? 'recommender' : 'applicant',
        ...(job.kind === 'letter' ? { recommenderId: row.id } : { itemId: requestItemId(row.id) }),
        at: now,
      });
      await bumpChecklistVersion(tx, row.applicationId);
      return recordChecklistWebhooks(tx, row.applicationId, now, 'received');
    });
    if (!received) {
      // Replaced or removed meanwhile: this PDF belongs to nobody.
      await storage.delete(pdfKey);
      return;
    }
    await deps.queueWebhooks(received);
    if (sourceKey) await storage.delete(sourceKey);
    log.info({ type }, 'checklist document received');
  } catch (error) {
    if (isDocumentRejected(error)) {
      // The converter's type refusal lists the pictures every upload takes; these take neither.
      await fail(
        error.code === 'FILE_TYPE' ? CHECKLIST_MESSAGES.fileTypeRefused : error.userMessage,
      );
      return;
    }
    if (lastAttempt) {
      log.error({ err: error }, 'checklist conversion failed for good');
      await fail(DOCUMENT_MESSAGES.conversionUnavailable);
      return;
    }
    log.warn({ err: error }, 'checklist conversion failed; will retry');
    throw error;
  }
}

export async function startChecklistConversionWorker(
  queue: JobQueue,
  deps: ChecklistConversionDeps,
  concurrency: number,
): Promise<() => Promise<void>> {
  for (let i = 0; i < concurrency; i++) {
    await workJobs<ChecklistConversionJob>(
      queue,
      CHECKLIST_CONVERSION_QUEUE.name,
      { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
      async ([job]) => {
        if (!job) return;
        await runChecklistConversion(deps, job.data, job.retryCount >= job.retryLimit);
      },
    );
  }
  return async () => {
    await queue.offWork(CHECKLIST_CONVERSION_QUEUE.name);
  };
}
