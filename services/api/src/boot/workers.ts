// What runs the background jobs, started the same way by the server (RUN_WORKER_IN_PROCESS) and by
// `npm run cli -- worker`, so that a new kind of job is added in one place and both get it.
import type { Logger } from 'pino';
import type { PartnerConfig } from '@admissions/form';
import type { Config } from '../platform/config';
import type { Database } from '../platform/db/connect';
import {
  HOUSEKEEPING_QUEUE,
  createAccountMailResolver,
  startHousekeepingWorker,
} from '../modules/auth';
import {
  defineConversionQueue,
  startConversionRuntime,
  type ConversionRuntime,
} from '../modules/documents';
import { EXPORT_QUEUE_DEFINITION, createPdfLayout, startExportWorker } from '../modules/export';
import { createMetrics, type Metrics } from '../platform/http/metrics';
import type { Clock } from '../platform/lib/clock';
import type { Secrets } from '../platform/lib/crypto';
import { MAIL_QUEUE, enqueueMail, startMailWorker } from '../modules/mail';
import {
  CHECKLIST_CONVERSION_QUEUE,
  createChecklistService,
  enqueueChecklistConversion,
  startChecklistConversionWorker,
} from '../modules/checklist';
import {
  OUTBOX_RETENTION_MS,
  deleteOutboxMessagesBefore,
  type Mailer,
} from '../platform/mail/mailer';
import {
  PDF_QUEUE,
  createPdfStore,
  deleteOrphanApplicationPdfs,
  startPdfWorker,
  type PageCountingRenderer,
  type PdfRenderer,
} from '../modules/print';
import {
  WEBHOOK_QUEUE,
  createWebhookQueuer,
  deleteExpiredWebhookDeliveries,
  requeueLostWebhookDeliveries,
  startWebhookWorker,
} from '../modules/webhooks';
import type { SandboxPool } from '../platform/sandbox/sandbox-pool';
import type { StorageDriver } from '../platform/storage/storage-driver';
import { startJobQueue, type JobQueue, type QueueDefinition } from '../platform/queue/job-queue';

/** Every module's queue: the one list the server, the worker and the metrics share. */
export function listQueues(config: Pick<Config, 'conversionTimeoutMs'>): QueueDefinition[] {
  return [
    MAIL_QUEUE,
    defineConversionQueue(config.conversionTimeoutMs),
    PDF_QUEUE,
    HOUSEKEEPING_QUEUE,
    EXPORT_QUEUE_DEFINITION,
    CHECKLIST_CONVERSION_QUEUE,
    WEBHOOK_QUEUE,
  ];
}

/** pg-boss, measured per job when METRICS_ENABLED (the metrics also report every queue's depth). */
export async function startMeasuredJobQueue(
  config: Config,
  database: Database,
  logger: Logger,
  workAfter?: PromiseLike<unknown>,
): Promise<{ queue: JobQueue; metrics?: Metrics }> {
  const queues = listQueues(config);
  const metrics = config.metricsEnabled
    ? await createMetrics(
        database,
        queues.map((q) => q.name),
      )
    : undefined;
  const queue = await startJobQueue(database, logger, {
    queues,
    observeJob: metrics ? (...args) => metrics.observeJob(...args) : undefined,
    ...(workAfter ? { workAfter } : {}),
  });
  return { queue, metrics };
}

export interface JobWorkers {
  conversion: ConversionRuntime;
  /** After queue.stop(): no job runs any more, so LibreOffice and the render threads can go. */
  stop(): Promise<void>;
}

export async function startJobWorkers(deps: {
  config: Config;
  database: Database;
  queue: JobQueue;
  storage: StorageDriver;
  mailer: Mailer;
  secrets: Secrets;
  partner: PartnerConfig;
  clock: Clock;
  logger: Logger;
  renderPdf: PdfRenderer;
  /** renderPdf that also counts pages where it renders (the export); else counted here. */
  layoutPdf?: PageCountingRenderer;
  /** Where documents are converted and checked (the caller owns it and closes it). */
  sandbox: SandboxPool;
  /** Job loops for `export --queue`. */
  exportLoops: number;
}): Promise<JobWorkers> {
  const { config, database, queue, storage, secrets, partner, clock, logger } = deps;
  const resolveAccountMail = createAccountMailResolver({
    db: database.db,
    clock,
    hmacKey: secrets.hmacKey,
    partner,
    publicUrl: config.publicUrl,
    limits: { burst: config.mailPerAddressBurst, perHour: config.mailPerAddressPerHour },
  });
  await startMailWorker(queue, secrets.encryptionKey, deps.mailer, logger, resolveAccountMail);
  const pdfStore = createPdfStore(database.db);
  const queueWebhooks = createWebhookQueuer(queue, logger);
  // The weekly reminders to recommenders go out from the housekeeping sweep; conversions of
  // letters and requested files are the checklist's own queue (started with the converter below).
  const checklist = createChecklistService({
    db: database.db,
    clock,
    partner,
    storage,
    encryptionKey: secrets.encryptionKey,
    hmacKey: secrets.hmacKey,
    mailLimits: { burst: config.mailPerAddressBurst, perHour: config.mailPerAddressPerHour },
    publicUrl: config.publicUrl,
    logger,
    sendMail: (message) => enqueueMail(queue, secrets.encryptionKey, message),
    queueConversion: (job) => enqueueChecklistConversion(queue, job),
    queueWebhooks,
  });
  await startHousekeepingWorker(queue, {
    db: database.db,
    clock,
    logger,
    sweeps: {
      outbox: (now) =>
        deleteOutboxMessagesBefore(config.dataDir, new Date(now.getTime() - OUTBOX_RETENTION_MS)),
      orphanApplicationPdfs: (now) =>
        deleteOrphanApplicationPdfs({ store: pdfStore, storage, logger }, now),
      recommenderReminders: (now) => checklist.sendDueReminders(now),
      // As long as a document's conversion may take with its retries (documents' stuck sweep).
      stuckChecklistConversions: (now) =>
        checklist.failStuckConversions(now, 3 * config.conversionTimeoutMs + 60_000),
      // Past the stuck time, a file no letter or request records is nobody's (a deleted account's).
      orphanChecklistFiles: (now) =>
        checklist.deleteOrphanFiles(now, 3 * config.conversionTimeoutMs + 5 * 60_000),
      // Webhook deliveries whose job was lost are queued again; the delivery log is kept 30 days.
      lostWebhookDeliveries: (now) => requeueLostWebhookDeliveries({ db: database.db, queue }, now),
      webhookDeliveryLog: (now) => deleteExpiredWebhookDeliveries(database.db, now),
    },
  });
  const conversion = await startConversionRuntime({
    config,
    db: database.db,
    queue,
    storage,
    clock,
    logger,
    sandbox: deps.sandbox,
  });
  const stopChecklistWorker = await startChecklistConversionWorker(
    queue,
    { db: database.db, storage, converter: conversion.converter, clock, logger, queueWebhooks },
    config.conversionConcurrency,
  );
  const stopWebhookWorker = await startWebhookWorker({
    db: database.db,
    queue,
    clock,
    logger,
    encryptionKey: secrets.encryptionKey,
    config: config.webhooks,
  });
  const renderDeps = {
    db: database.db,
    storage,
    clock,
    partner,
    encryptionKey: secrets.encryptionKey,
    logger,
  };
  const stopPdfWorker = await startPdfWorker(
    queue,
    { ...renderDeps, render: deps.renderPdf, store: pdfStore },
    config.pdfConcurrency,
  );
  const stopExportWorker = await startExportWorker(
    queue,
    { ...renderDeps, database, layout: deps.layoutPdf ?? createPdfLayout(deps.renderPdf) },
    deps.exportLoops,
  );
  return {
    conversion,
    async stop() {
      await stopChecklistWorker();
      await stopWebhookWorker();
      await conversion.stop();
      await stopPdfWorker();
      await stopExportWorker();
    },
  };
}
