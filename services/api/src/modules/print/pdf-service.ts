// The application PDF, cached per version of the application (applications.version, bumped by
// every change of answers, tabs, add-another counts and documents): the applicant's copy is made
// by a job (GET /api/pdf polls it), the staff copy on the spot (GET /service/pdf).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import {
  SERVICE_MESSAGES,
  type ApplicationPdfResponse,
  type ConversionStatus,
} from '@admissions/api-contract';
import { AppError } from '../../platform/lib/app-error';
import { findApplication, readApplicationVersion, readPlainAnswers } from '../application';
import { createDownloadLink, verifyDownloadLink, type DownloadLinkQuery } from './download-links';
import { PDF_NAME_KEYS } from './pdf-file-name';
import { createApplicationPdfKey } from './pdf-keys';
import type { PdfJob } from './pdf-jobs';
import { createPdfStore } from './pdf-store';
import { readApplicationSnapshot } from './read-application';
import { renderApplication, type RenderDeps } from './render-application';
import { buildServicePrint } from './service-print';
import type { PdfShownKeys } from './schema';

export interface ApplicationPdfDeps extends RenderDeps {
  logger: Logger;
  downloadLinkKey: Buffer;
  enqueue: (job: PdfJob) => Promise<void>;
}

/** A FAILED generation is retried by a GET this long after the failure. */
export const PDF_RETRY_AFTER_MS = 60_000;
/** A generation pending this long lost its worker; a GET starts it again. */
export const PDF_STUCK_AFTER_MS = 10 * 60_000;
/** Generated PDFs are small; a stored one past this is not ours. */
const MAX_PDF_BYTES = 256 * 1024 * 1024;

const PENDING_MESSAGES: Partial<Record<ConversionStatus, string>> = {
  UNPROCESSED: SERVICE_MESSAGES.pdfWaiting,
  IN_PROGRESS: SERVICE_MESSAGES.pdfInProgress,
};

export function createApplicationPdfService(deps: ApplicationPdfDeps) {
  const { storage, clock, logger } = deps;
  const store = createPdfStore(deps.db);

  const linkRefused = (reason: 'signature' | 'expired' | 'owner') =>
    new AppError(
      reason === 'expired' ? 'LINK_EXPIRED' : 'LINK_INVALID',
      reason === 'expired' ? SERVICE_MESSAGES.linkExpired : SERVICE_MESSAGES.linkInvalid,
    );
  const stale = () => new AppError('PDF_STALE', SERVICE_MESSAGES.linkStale);

  return {
    store,

    /** GET /api/pdf: the status of the current version's PDF, starting it when needed. */
    async requestPdf(applicationId: string): Promise<ApplicationPdfResponse> {
      const now = clock.now();
      const version = await readApplicationVersion(deps.db, applicationId);
      const token = await store.startGeneration({
        applicationId,
        audience: 'applicant',
        version,
        token: randomBytes(16).toString('base64url'),
        now,
        retryFailedBefore: new Date(now.getTime() - PDF_RETRY_AFTER_MS),
        stuckBefore: new Date(now.getTime() - PDF_STUCK_AFTER_MS),
      });
      if (token) {
        try {
          await deps.enqueue({ applicationId, audience: 'applicant', token });
        } catch (error) {
          await store.fail(
            applicationId,
            'applicant',
            token,
            SERVICE_MESSAGES.pdfFailed,
            clock.now(),
          );
          throw error;
        }
        return { status: 'UNPROCESSED', url: '', message: SERVICE_MESSAGES.pdfWaiting };
      }
      const row = await store.find(applicationId, 'applicant');
      if (!row) throw new Error('application PDF row missing after start');
      const status = row.status as ConversionStatus;
      if (status === 'COMPLETED') {
        return {
          status,
          url: createDownloadLink(deps.downloadLinkKey, {
            applicationId,
            version: row.version,
            now,
          }),
          message: SERVICE_MESSAGES.pdfReady,
        };
      }
      if (status === 'FAILED') return { status, url: '', message: row.message };
      return { status, url: '', message: PENDING_MESSAGES[status] ?? '' };
    },

    /**
     * GET /api/pdf/file: the PDF behind a link, for the link's owner only, with the answers that
     * name the file (read from the plain column: nothing is decrypted to send a stored file).
     */
    async readDownload(
      sessionUserId: string,
      query: DownloadLinkQuery,
    ): Promise<{ bytes: Uint8Array; nameAnswers: Record<string, string>; applicationId: string }> {
      const check = verifyDownloadLink(deps.downloadLinkKey, query, clock.now());
      if (!check.ok) throw linkRefused(check.reason);
      const { applicationId } = check;
      const application = await findApplication(deps.db, applicationId);
      if (application?.userId !== sessionUserId) throw linkRefused('owner');
      // The link is for one version of the application: once the application changed, the
      // cached PDF (still of that version until GET /api/pdf runs again) is out of date.
      const [row, current] = await Promise.all([
        store.find(applicationId, 'applicant'),
        readApplicationVersion(deps.db, applicationId),
      ]);
      if (
        row?.status !== 'COMPLETED' ||
        row.version !== check.version ||
        current !== check.version ||
        !row.storageKey
      ) {
        throw stale();
      }
      const bytes = await storage.read(row.storageKey, MAX_PDF_BYTES);
      if (!bytes) throw stale();
      const nameAnswers = await readPlainAnswers(deps.db, applicationId, PDF_NAME_KEYS);
      return { bytes, nameAnswers, applicationId };
    },

    /**
     * GET /service/tmp-pdf (and the staff area's application page): the print view's finished
     * view model, from one read of the application, with what it shows. null without one.
     */
    async readServicePrint(applicationId: string) {
      const snapshot = await readApplicationSnapshot(deps.db, deps.encryptionKey, applicationId);
      return snapshot ? buildServicePrint(snapshot, deps.partner) : null;
    },

    /**
     * GET /service/pdf: the staff copy of the current version, from the cache or rendered now,
     * with what it shows (`shown`, for the audit: stored with the cached copy) and the answers
     * that name the file. null when the application does not exist.
     */
    async readServicePdf(applicationId: string): Promise<{
      bytes: Uint8Array;
      shown: PdfShownKeys;
      nameAnswers: Record<string, string>;
    } | null> {
      if (!(await findApplication(deps.db, applicationId))) return null;
      const [cached, version] = await Promise.all([
        store.find(applicationId, 'service'),
        readApplicationVersion(deps.db, applicationId),
      ]);
      if (
        cached?.status === 'COMPLETED' &&
        cached.version === version &&
        cached.storageKey &&
        cached.shown
      ) {
        const bytes = await storage.read(cached.storageKey, MAX_PDF_BYTES);
        if (bytes) {
          const nameAnswers = await readPlainAnswers(deps.db, applicationId, PDF_NAME_KEYS);
          return { bytes, shown: cached.shown, nameAnswers };
        }
      }
      let rendered;
      try {
        rendered = await renderApplication(deps, applicationId, 'service');
      } catch (error) {
        logger.error({ err: error }, 'staff PDF failed');
        throw new AppError('PDF_UNAVAILABLE', SERVICE_MESSAGES.pdfFailed);
      }
      const key = createApplicationPdfKey(applicationId, 'service');
      try {
        await storage.write(key, rendered.bytes, 'application/pdf');
        const result = await store.storeRendered({
          applicationId,
          audience: 'service',
          version: rendered.version,
          token: randomBytes(16).toString('base64url'),
          storageKey: key,
          pdfSize: rendered.bytes.length,
          shown: rendered.shown,
          now: clock.now(),
        });
        const remove = result === 'stale' ? key : result.previousKey;
        if (remove) await storage.delete(remove);
      } catch (error) {
        // The copy is served anyway; only the cache missed out.
        logger.warn({ err: error }, 'could not cache the staff PDF');
      }
      const nameAnswers = Object.fromEntries(
        PDF_NAME_KEYS.flatMap((k) => {
          const value = rendered.snapshot.answers[k];
          return value ? [[k, value]] : [];
        }),
      );
      return { bytes: rendered.bytes, shown: rendered.shown, nameAnswers };
    },
  };
}

export type ApplicationPdfService = ReturnType<typeof createApplicationPdfService>;
