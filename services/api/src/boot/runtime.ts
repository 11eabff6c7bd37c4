import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { PGlite } from '@electric-sql/pglite';
import type { PartnerConfig } from '@admissions/form';
import { loadPartner } from '../platform/partner';
import type { Config } from '../platform/config';
import { openDatabase, wrapPglite, type Database } from '../platform/db/connect';
import { migrateDatabase } from '../platform/db/migrate';
import { syncPartnerRounds } from '../modules/rounds';
import type { JobQueue } from '../platform/queue/job-queue';
import { startJobWorkers, startMeasuredJobQueue } from './workers';
import type { Metrics } from '../platform/http/metrics';
import { enqueueMail } from '../modules/mail';
import type { ConversionRuntime } from '../modules/documents';
import { enqueuePdfJob } from '../modules/print';
import { startPgliteSocket } from '../platform/db/pglite-socket';
import { systemClock, type Clock } from '../platform/lib/clock';
import { loadSecrets, type Secrets } from '../platform/lib/crypto';
import {
  closePrivateDataDir,
  restrictNewFiles,
  securePrivateDataDir,
} from '../platform/lib/private-data-dir';
import { createMailer, type Mailer } from '../platform/mail/mailer';
import { seedLookupSamples } from '../modules/lookup';
import { createStorage } from '../platform/storage/create-storage';
import type { StorageDriver } from '../platform/storage/storage-driver';
import { DOCUMENT_SANDBOX_TASKS, LOCAL_UPLOAD, enqueueConversion } from '../modules/documents';
import { enqueueChecklistConversion } from '../modules/checklist';
import { createWebhookQueuer } from '../modules/webhooks';
import { buildApp } from './app';
import { PRINT_SANDBOX_TASKS, createSandboxedRenderers } from '../modules/print';
import type { PdfRenderer } from '../modules/print';
import { createConfiguredSandbox, type SandboxPool } from '../platform/sandbox/sandbox-pool';

/** What the server and the worker process share: everything but HTTP. */
export interface Services {
  database: Database;
  queue: JobQueue;
  secrets: Secrets;
  partner: PartnerConfig;
  mailer: Mailer;
  storage: StorageDriver;
  /** The in-process conversion worker and its LibreOffice pool (absent with RUN_WORKER_IN_PROCESS=false). */
  conversion?: ConversionRuntime;
  /** Present with METRICS_ENABLED. */
  metrics?: Metrics;
  /** The children that convert and render applicants' files (src/sandbox). */
  sandbox: SandboxPool;
  /** Renders application PDFs (in the sandbox, unless a test hands in its own). */
  renderPdf: PdfRenderer;
  /**
   * Stops in reverse order: running jobs get until `deadline` (epoch ms; default
   * SHUTDOWN_TIMEOUT_MS from now) to finish, after which pg-boss fails them back to the queue for
   * a retry elsewhere; then the pools, storage, mail and the database close.
   */
  close(options?: { deadline?: number }): Promise<void>;
}

export interface Runtime extends Services {
  app: FastifyInstance;
  /** HTTP first (no new connections, in-flight requests drained), then Services.close. */
  close(options?: { deadline?: number }): Promise<void>;
}

export interface RuntimeOptions {
  logger: Logger;
  clock?: Clock;
  /** Tests hand in a PGlite loaded from a migrated snapshot. */
  pglite?: PGlite;
  /**
   * The embedded database the server's entry point began to open (openPgliteFiles) before it
   * loaded the rest of the service; this process owns it as if it had opened it here.
   */
  openingPglite?: Promise<PGlite>;
  /** Sees every statement drizzle sends (tests count reads with it). */
  logQuery?: (query: string) => void;
  /** The CLI itself opens the files and must not offer them to others. */
  shareEmbeddedDatabase?: boolean;
  /** Start LibreOffice at boot (the server does; tests leave it to the first conversion). */
  warmConversionPool?: boolean;
  /** The application PDF renderer (tests may hand in a failing or slow one). */
  renderPdf?: PdfRenderer;
  /** Load the PDF fonts and render once at boot (the server does). */
  warmPdfRenderer?: boolean;
  /**
   * The warm-ups above start when this settles (the server: shortly after it listens), so that
   * their processes — LibreOffice, the renderer's child — do not compete for the CPU with the
   * start; so do the job workers' polls and the DATA_DIR permission walk.
   */
  warmAfter?: Promise<unknown>;
}

export interface ServicesOptions extends RuntimeOptions {
  /**
   * 'server': jobs run here only with RUN_WORKER_IN_PROCESS, lookup samples are seeded and the
   * embedded database is shared with the CLI. 'worker' (`npm run cli -- worker`): always runs
   * the jobs, more export loops, nothing else.
   */
  role: 'server' | 'worker';
}

/** Everything the server and the worker need but HTTP, in start-up order; close() stops it. */
export async function startServices(config: Config, options: ServicesOptions): Promise<Services> {
  const { logger, role } = options;
  const clock = options.clock ?? systemClock;
  // Before anything writes there: the database, blobs, outbox and key are this user's alone.
  restrictNewFiles();
  await closePrivateDataDir(config.dataDir);
  const secrets = await loadSecrets(config.secretKey, config.dataDir);
  const partner = await loadPartner(config);
  const database = options.openingPglite
    ? wrapPglite(await options.openingPglite, options.logQuery)
    : await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        pglite: options.pglite,
        ...(options.logQuery ? { logQuery: options.logQuery } : {}),
      });
  // Every entry brought to 0700/0600 (left by an older version, copied in, or PGlite's own files,
  // which it creates 0666 whatever the umask) once the server listens: the walk grows with the
  // uploads (0.5 s for 40,000 files) and the closed folder already keeps everyone else out.
  void (options.warmAfter ?? Promise.resolve())
    .then(() => securePrivateDataDir(config.dataDir))
    .then(
      (unfixed) => {
        if (unfixed.length === 0) return;
        logger.warn(
          { count: unfixed.length, first: unfixed.slice(0, 5) },
          'DATA_DIR entries owned by another user keep their permissions',
        );
      },
      (error: unknown) => logger.warn({ err: error }, 'DATA_DIR permissions walk failed'),
    );
  await migrateDatabase(database);
  // Rounds the configuration names and the table lacks (a round changed with the CLI keeps its
  // changes: docs/rounds.md). Every process may run it: the insert skips codes already there.
  const addedRounds = await syncPartnerRounds(database.db, partner);
  if (addedRounds.length > 0) logger.info({ rounds: addedRounds }, 'admission rounds added');
  if (role === 'server') await seedLookupSamples(database, logger);
  // Only a server that opened the embedded files itself shares them with the CLI.
  const stopSocket =
    role === 'server' &&
    database.pglite &&
    !options.pglite &&
    options.shareEmbeddedDatabase !== false
      ? await startPgliteSocket(database.pglite, config.dataDir)
      : undefined;
  const { queue, metrics } = await startMeasuredJobQueue(
    config,
    database,
    logger,
    options.warmAfter,
  );
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger,
  });
  // Shared by every process: S3, or DATA_DIR/blobs on the same machine.
  const storage = await createStorage(config, secrets.hmacKey, clock, LOCAL_UPLOAD.path);
  // Conversion and rendering parse applicants' files: they run in sandbox children, not here.
  const sandbox = createConfiguredSandbox(config, logger, [
    DOCUMENT_SANDBOX_TASKS,
    PRINT_SANDBOX_TASKS,
  ]);
  const sandboxed = createSandboxedRenderers(sandbox);
  const renderPdf = options.renderPdf ?? sandboxed.render;
  // `export --queue` jobs included: on the embedded database only the server can run them.
  const workers =
    role === 'worker' || config.runWorkerInProcess
      ? await startJobWorkers({
          config,
          database,
          queue,
          storage,
          mailer,
          secrets,
          partner,
          clock,
          logger,
          renderPdf,
          layoutPdf: options.renderPdf ? undefined : sandboxed.layout,
          sandbox,
          exportLoops: role === 'worker' ? 4 : 2,
        })
      : undefined;
  // A stop during a warm-up closes the pools under it: that is no failure worth an error line.
  let stopping = false;
  const reportWarmUpFailure = (what: string) => (error: unknown) => {
    if (!stopping) logger.error({ err: error }, `${what} warm-up failed`);
  };
  void (options.warmAfter ?? Promise.resolve()).then(() => {
    if (options.warmConversionPool === true && workers) {
      // In the background: requests are answered while LibreOffice starts (~1–2 s per process).
      void workers.conversion.pool.warm().catch(reportWarmUpFailure('LibreOffice'));
    }
    if (options.warmPdfRenderer === true && !options.renderPdf) {
      // In a child: it does not block this event loop.
      void sandboxed.warm().catch(reportWarmUpFailure('PDF renderer'));
    }
  });
  return {
    database,
    queue,
    secrets,
    partner,
    mailer,
    storage,
    conversion: workers?.conversion,
    metrics,
    sandbox,
    renderPdf,
    async close(closeOptions = {}) {
      stopping = true;
      const deadline = closeOptions.deadline ?? Date.now() + config.shutdownTimeoutMs;
      // pg-boss stops fetching at once, then waits for running handlers until the deadline and
      // fails whatever is still running back to its queue (retried by any worker).
      await queue.stop({
        graceful: true,
        wait: true,
        // Whatever is left of the budget: a shutdown never outlasts SHUTDOWN_TIMEOUT_MS.
        timeout: Math.max(200, deadline - Date.now()),
      });
      // Only now that no conversion runs: the LibreOffice pool, the sweepers' timers.
      await workers?.stop();
      await sandbox.close();
      await storage.close();
      mailer.close();
      await stopSocket?.();
      await database.close();
    },
  };
}

/** Everything the server needs, in start-up order; close() stops it in reverse. */
export async function startRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const services = await startServices(config, { ...options, role: 'server' });
  const { database, queue, secrets } = services;
  const app = await buildApp({
    config,
    database,
    secrets,
    partner: services.partner,
    clock,
    logger,
    sendMail: (message) => enqueueMail(queue, secrets.encryptionKey, message),
    storage: services.storage,
    enqueueConversion: (job) => enqueueConversion(queue, job),
    enqueueChecklistConversion: (job) => enqueueChecklistConversion(queue, job),
    queueWebhooks: createWebhookQueuer(queue, logger),
    enqueuePdf: (job) => enqueuePdfJob(queue, job),
    renderPdf: services.renderPdf,
    metrics: services.metrics,
    queue,
  });
  return {
    ...services,
    app,
    async close(closeOptions = {}) {
      const deadline = closeOptions.deadline ?? Date.now() + config.shutdownTimeoutMs;
      // Stop listening and let requests in flight finish; past the deadline, cut them off.
      const cutOff = setTimeout(
        () => {
          logger.warn('requests still running at the shutdown deadline: closing their connections');
          app.server.closeAllConnections();
        },
        Math.max(0, deadline - Date.now()),
      );
      await app.close().finally(() => clearTimeout(cutOff));
      await services.close({ deadline });
    },
  };
}
