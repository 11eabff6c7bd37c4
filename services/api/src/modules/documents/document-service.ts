import { createHash, randomBytes } from 'node:crypto';
import { APPLICATION_DEFINITION, isFileQuestion, listTabAnswersToClear } from '@admissions/form';
import {
  API_ROUTES,
  DOCUMENT_MESSAGES,
  MESSAGES,
  type ConversionStatusResponse,
  type DocumentAnswersResponse,
  type PresignedUrlResponse,
} from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import type { Logger } from 'pino';
import { findApplication, type Applicant, type ApplicantWrite } from '../application';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createUploadKey, UPLOAD_POLICY } from './document-storage';
import {
  createDocumentStore,
  findConverting,
  profileDocumentsSql,
  PENDING_STATUSES,
  type DocumentAnswerRow,
} from './document-store';
import { stuckAfterMs, type ConversionJob } from './conversion-jobs';

export interface DocumentServiceDeps {
  db: Db;
  storage: StorageDriver;
  clock: Clock;
  logger: Logger;
  enqueue: (job: ConversionJob) => Promise<void>;
  conversionTimeoutMs: number;
  /** The institution's time zone: a refusal after a round's deadline names it in this zone. */
  timeZone: string;
}

const STATUS_MESSAGES = {
  UNPROCESSED: DOCUMENT_MESSAGES.waiting,
  IN_PROGRESS: DOCUMENT_MESSAGES.converting,
  COMPLETED: DOCUMENT_MESSAGES.completed,
  NOT_ANSWERED: DOCUMENT_MESSAGES.notAnswered,
} as const;

/** Thumbnails are small PNGs; anything larger in their place is not one of ours. */
const MAX_THUMBNAIL_BYTES = 1024 * 1024;

/** Changes with every picture, so the browser never shows a replaced document's from its cache. */
function thumbnailVersion(thumbnailKey: string): string {
  return createHash('sha256').update(thumbnailKey).digest('hex').slice(0, 16);
}

/** COMPLETED, with the applicant's proof of the document when it was drawn. */
function completedStatus(document: DocumentAnswerRow): ConversionStatusResponse {
  return {
    status: 'COMPLETED',
    message: STATUS_MESSAGES.COMPLETED,
    ...(document.pageCount ? { page_count: document.pageCount } : {}),
    ...(document.thumbnailKey
      ? {
          thumbnail_url: `${API_ROUTES.documentThumbnail.replace(':key', document.answerKey)}?v=${thumbnailVersion(document.thumbnailKey)}`,
        }
      : {}),
  };
}

export function createDocumentService(deps: DocumentServiceDeps) {
  const { db, storage, clock, logger } = deps;
  const store = createDocumentStore(db);

  function requireFileQuestion(answerKey: string) {
    if (!isFileQuestion(answerKey)) {
      throw new AppError('NOT_A_FILE_QUESTION', DOCUMENT_MESSAGES.notAFileQuestion);
    }
  }

  async function requireOpenApplication(applicationId: string) {
    const row = await findApplication(db, applicationId);
    if (row?.submittedAt) throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
  }

  const writeOf = (applicant: Applicant): ApplicantWrite => ({
    receivedAt: applicant.receivedAt,
    timeZone: deps.timeZone,
  });

  const inProgress = () =>
    new AppError('CONVERSION_IN_PROGRESS', DOCUMENT_MESSAGES.conversionInProgress);

  async function removeBlob(key: string | null | undefined) {
    if (!key) return;
    try {
      await storage.delete(key);
    } catch (error) {
      logger.warn({ err: error }, 'could not remove a stored file');
    }
  }

  return {
    store,
    // The application module's ApplicationFiles (boot/ hands them over).
    findConverting,
    profileDocumentsSql,

    async createUploadUrl(applicant: Applicant, answerKey: string): Promise<PresignedUrlResponse> {
      requireFileQuestion(answerKey);
      const { applicationId } = applicant;
      await requireOpenApplication(applicationId);
      // Keyed by the application: two applications of one applicant never share a key's folder.
      const key = createUploadKey(applicationId, answerKey);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + UPLOAD_POLICY.expiresInSeconds * 1000);
      // An S3 link takes a file until it expires, released or not; the local endpoint's does not.
      const releasedLinksReceive = storage.kind !== 'local';
      if (
        !(await store.recordUploadWithinLimits(
          applicationId,
          answerKey,
          key,
          expiresAt,
          now,
          releasedLinksReceive,
          writeOf(applicant),
        ))
      ) {
        throw new AppError('TOO_MANY_UPLOADS', DOCUMENT_MESSAGES.tooManyUploads);
      }
      return storage.presignPost(key, UPLOAD_POLICY);
    },

    async startConversion(
      applicant: Applicant,
      answerKey: string,
      fileKey: string,
      fileName: string,
    ): Promise<ConversionStatusResponse> {
      requireFileQuestion(answerKey);
      const { applicationId } = applicant;
      const token = randomBytes(16).toString('base64url');
      const begun = await store.beginConversion({
        applicationId,
        answerKey,
        token,
        sourceKey: fileKey,
        fileName,
        now: clock.now(),
        write: writeOf(applicant),
      });
      if (!begun.started) {
        switch (begun.reason) {
          case 'submitted':
            throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
          // Only a key issued to this applicant for this question: anything else looks missing.
          case 'unknown-key':
            throw new AppError('UPLOAD_UNKNOWN', DOCUMENT_MESSAGES.uploadMissing);
          case 'key-used':
            throw new AppError('UPLOAD_USED', DOCUMENT_MESSAGES.uploadUsed);
          case 'key-released':
            throw new AppError('UPLOAD_USED', DOCUMENT_MESSAGES.uploadReleased);
          case 'in-progress':
            throw inProgress();
        }
      }
      // The key's blob belongs to the conversion from here on; the replaced one's is not needed.
      const replaced = begun.replaced;
      if (replaced && replaced.sourceKey !== fileKey) await removeBlob(replaced.sourceKey);
      await deps.enqueue({ applicationId, answerKey, token });
      return { status: 'UNPROCESSED', message: DOCUMENT_MESSAGES.waiting };
    },

    async readStatus(applicationId: string, answerKey: string): Promise<ConversionStatusResponse> {
      requireFileQuestion(answerKey);
      const row = await store.findConversion(applicationId, answerKey);
      if (row) {
        const status = row.status as ConversionStatusResponse['status'];
        if (status === 'FAILED') return { status, message: row.message };
        if (
          PENDING_STATUSES.includes(status) &&
          clock.now().getTime() - row.updatedAt.getTime() > stuckAfterMs(deps.conversionTimeoutMs)
        ) {
          // The sweeper has not run yet: answer as it will.
          const result = await store.failConversion(
            row,
            DOCUMENT_MESSAGES.conversionUnavailable,
            clock.now(),
            MESSAGES.alreadySubmitted,
          );
          if (result === 'frozen') return { status: 'FAILED', message: MESSAGES.alreadySubmitted };
          if (result !== 'stale') {
            await removeBlob(result.removedPdfKey);
            await removeBlob(result.removedThumbnailKey);
            await removeBlob(row.sourceKey);
          }
          return { status: 'FAILED', message: DOCUMENT_MESSAGES.conversionUnavailable };
        }
        if (status !== 'COMPLETED' && status in STATUS_MESSAGES) {
          return { status, message: STATUS_MESSAGES[status as keyof typeof STATUS_MESSAGES] };
        }
      }
      const document = await store.findDocumentAnswer(applicationId, answerKey);
      if (document) return completedStatus(document);
      return row?.status === 'COMPLETED'
        ? { status: 'COMPLETED', message: STATUS_MESSAGES.COMPLETED }
        : { status: 'NOT_ANSWERED', message: STATUS_MESSAGES.NOT_ANSWERED };
    },

    /**
     * The first-page PNG of the applicant's own converted document. The row is looked up by the
     * applicant's current application, so another application's document is as missing as a deleted one (404).
     */
    async readThumbnail(applicationId: string, answerKey: string): Promise<Uint8Array> {
      requireFileQuestion(answerKey);
      const document = await store.findDocumentAnswer(applicationId, answerKey);
      const png = document?.thumbnailKey
        ? await storage.read(document.thumbnailKey, MAX_THUMBNAIL_BYTES)
        : null;
      if (!png) throw new AppError('NOT_FOUND', DOCUMENT_MESSAGES.noPreview);
      return png;
    },

    /** Forgets the conversion (a pending job then finds nothing to do); the document stays. */
    async deleteConversion(applicant: Applicant, answerKey: string): Promise<void> {
      requireFileQuestion(answerKey);
      const { applicationId } = applicant;
      await requireOpenApplication(applicationId);
      const removed = await store.deleteConversion(applicationId, answerKey, writeOf(applicant));
      if (removed === 'submitted') {
        throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
      }
      if (removed && removed.status !== 'COMPLETED') await removeBlob(removed.sourceKey);
    },

    async deleteDocument(applicant: Applicant, answerKey: string): Promise<void> {
      requireFileQuestion(answerKey);
      const { applicationId } = applicant;
      await requireOpenApplication(applicationId);
      const pending = await store.listPendingConversions(applicationId, [answerKey]);
      if (pending.length > 0) throw inProgress();
      const removed = await store.deleteDocumentAnswer(
        applicationId,
        answerKey,
        clock.now(),
        writeOf(applicant),
      );
      if (removed === 'submitted') {
        throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
      }
      await removeBlob(removed?.pdfKey);
      await removeBlob(removed?.thumbnailKey);
    },

    async readDocumentAnswers(applicationId: string): Promise<DocumentAnswersResponse> {
      const rows = await store.listDocumentAnswers(applicationId);
      return Object.fromEntries(
        rows.map((r) => [r.answerKey, { file_name: r.fileName, file_size: r.fileSize }]),
      );
    },

    /**
     * Before PUT /api/tabs: the file questions the switch clears. Refused (409, "File Upload in
     * Progress" in the SPA) while one of them is still converting.
     */
    async prepareTabSwitch(
      applicationId: string,
      tabId: string,
      chosenTab: string,
    ): Promise<string[]> {
      const keys = listTabAnswersToClear(APPLICATION_DEFINITION, tabId, chosenTab).filter((key) =>
        isFileQuestion(key),
      );
      const pending = await store.listPendingConversions(applicationId, keys);
      if (pending.length > 0) throw inProgress();
      return keys;
    },

    /** After the switch: deletes the uploaded files of the tab left. */
    async finishTabSwitch(applicationId: string, keys: string[]): Promise<void> {
      for (const key of keys) {
        const removed = await store.deleteDocumentAnswer(applicationId, key, clock.now());
        // Submitted in between: its documents stay as they were.
        if (removed !== 'submitted') {
          await removeBlob(removed?.pdfKey);
          await removeBlob(removed?.thumbnailKey);
        }
      }
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
