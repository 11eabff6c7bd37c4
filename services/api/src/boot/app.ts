import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import { ENDPOINTS, MESSAGES } from '@admissions/api-contract';
import type { PartnerConfig } from '@admissions/form';
import { isHttps, type Config } from '../platform/config';
import type { Database } from '../platform/db/connect';
import type { Clock } from '../platform/lib/clock';
import { registerReceiptTime } from '../platform/http/receipt-time';
import type { Secrets } from '../platform/lib/crypto';
import { AppError } from '../platform/lib/app-error';
import type { MailJob } from '../modules/mail';
import { registerErrorHandling } from '../platform/http/error-handler';
import { registerEndpoint } from '../platform/http/register-endpoint';
import {
  documentAccess,
  registerAccessControl,
  registerPublicPlugin,
} from '../platform/http/access';
import { registerRequestLog } from '../platform/http/request-log';
import { createLazyRequestLogger } from '../platform/logging/lazy-request-logger';
import { compileValidator } from '../platform/http/validator';
import { compileValidatorLazily, lazySerializerController } from '../platform/http/lazy-compile';
import { registerSecurity } from '../platform/http/security';
import { registerSpa } from '../platform/http/spa';
import { registerJsonBodyParser } from '../platform/http/json-body';
import { registerCrossSiteGuard } from '../platform/http/request-guard';
import { registerSessionGate } from '../modules/auth';
import { registerBodyDeadline } from '../platform/http/body-deadline';
import { registerMetrics, type Metrics } from '../platform/http/metrics';
import { createAuthService } from '../modules/auth';
import { authRoutes } from '../modules/auth';
import { createRequireSession } from '../modules/auth';
import type { CookieSettings } from '../modules/auth';
import {
  createApplicantResolver,
  createApplicationService,
  openApplication,
} from '../modules/application';
import { applicationRoutes } from '../modules/application';
import type { StorageDriver } from '../platform/storage/storage-driver';
import { localUploadRoute } from '../platform/storage/local-upload-route';
import type { LocalStorage } from '../platform/storage/local-storage';
import type { ConversionJob } from '../modules/documents';
import { createDocumentService, LOCAL_UPLOAD } from '../modules/documents';
import { documentRoutes } from '../modules/documents';
import { createAddressProvider } from '../modules/lookup';
import { createLookupService } from '../modules/lookup';
import { lookupRoutes } from '../modules/lookup';
import { registerReadOnlyGuard } from '../modules/service';
import { serviceRoutes } from '../modules/service';
import type { PdfJob } from '../modules/print';
import { createApplicationPdfService } from '../modules/print';
import { pdfRoutes } from '../modules/print';
import type { PdfRenderer } from '../modules/print';
import type { JobQueue } from '../platform/queue/job-queue';
import { isApiKeyLive, registerStaffArea } from '../modules/staff';
import {
  checklistRoutes,
  createChecklistService,
  type ChecklistConversionJob,
} from '../modules/checklist';
import type { QueueWebhookDeliveries } from '../modules/webhooks';

export interface AppDeps {
  config: Config;
  database: Database;
  secrets: Secrets;
  partner: PartnerConfig;
  clock: Clock;
  logger: Logger;
  /**
   * Queues an e-mail, or an account request the mail worker decides (auth/account-mail.ts); the
   * worker sends it, so a slow mail server never blocks a request.
   */
  sendMail: (message: MailJob) => Promise<void>;
  /** Uploaded files and converted PDFs (local disk or S3). */
  storage: StorageDriver;
  /** Queues a document conversion for the worker. */
  enqueueConversion: (job: ConversionJob) => Promise<void>;
  /** Queues the conversion of a recommender's letter or a requested file. */
  enqueueChecklistConversion: (job: ChecklistConversionJob) => Promise<void>;
  /** Queues the webhook deliveries a committed change recorded (the webhooks module). */
  queueWebhooks: QueueWebhookDeliveries;
  /** Queues the generation of an applicant's application PDF. */
  enqueuePdf: (job: PdfJob) => Promise<void>;
  /** Lays out the application PDF (the staff copy is rendered in the request). */
  renderPdf: PdfRenderer;
  /** The job queue (staff exports run the export job through it). */
  queue?: JobQueue;
  /** Prometheus metrics (METRICS_ENABLED); without them GET /metrics is an ordinary 404. */
  metrics?: Metrics;
}

/** The HTTP application, without listening: main.ts serves it, tests inject into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, clock, logger } = deps;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's two lines per request (incoming, completed) were a tenth of an autosave's CPU;
    // one line at completion says the same (see registerRequestLog).
    logController: new LogController({ disableRequestLogging: true }),
    // request.log made when first used, not for every request (see LazyRequestLogger).
    childLoggerFactory: createLazyRequestLogger,
    // A hop count as proxy-addr reads it (Fastify's typings lack the number form): the nearest
    // `n` addresses — the socket's, then X-Forwarded-For from the right — are proxies.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1_048_576,
    connectionTimeout: config.requestTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    schemaController: lazySerializerController,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(compileValidatorLazily(compileValidator));
  // First: every route after this one declares who may call it, or the app does not start.
  registerAccessControl(app);
  // The first hook: a deadline is judged by when a request arrived, before any other work.
  registerReceiptTime(app, clock);

  // Only JSON bodies: a text/plain POST is what a cross-site HTML form can send without CORS.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  registerErrorHandling(app);
  if (config.logFormat === 'json') registerRequestLog(app);
  registerBodyDeadline(app, config);
  await registerSecurity(app, config);
  // A state change another site asked for is refused before any other work (403); after helmet,
  // so the refusal carries the security headers.
  registerCrossSiteGuard(app, config);
  // Before routing, authentication and body parsing: a service token never writes, whatever
  // the route (docs/design-decisions.md, 9). After helmet, so the 403 carries the security headers too.
  registerReadOnlyGuard(app);
  if (deps.metrics) registerMetrics(app, deps.metrics, config);
  await app.register(cookie);
  await app.register(swagger, {
    transform: documentAccess,
    openapi: {
      info: {
        title: 'Admissions application API',
        version: '1.0.0',
        description: 'Applicant, account, lookup and staff calls. Every error body is {message}.',
      },
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: '`npm run cli -- staff api-key create`',
          },
        },
      },
    },
  });
  if (config.enableDocs) {
    // Loaded only where the UI is on (off by default).
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    await registerPublicPlugin(app, () =>
      app.register(swaggerUi, {
        routePrefix: '/docs',
        staticCSP: true,
        // The UI's own policy, hardened like every other page (docs/design-decisions.md, 11): it uses no <base>
        // and is never framed.
        transformStaticCSP: (header) =>
          header
            .replace("base-uri 'self'", "base-uri 'none'")
            .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
      }),
    );
  }

  registerEndpoint(app, ENDPOINTS.health, {
    config: { rateLimit: false },
    handler: async () => {
      try {
        await database.db.execute(sql`SELECT 1`);
      } catch {
        throw new AppError('UNAVAILABLE', MESSAGES.unavailable, {
          headers: { 'retry-after': '5' },
        });
      }
      return { status: 'ok' as const };
    },
  });

  // The institution's details as this deployment configured them (PARTNER_CONFIG_FILE), so the
  // SPA's labels, limits and alert match what the server enforces.
  registerEndpoint(app, ENDPOINTS.readPartner, { handler: async () => deps.partner });

  const cookies: CookieSettings = { secure: isHttps(config), clientId: config.loginMarkerClientId };
  app.decorateRequest('sessionUser', null);
  registerSessionGate(app, createRequireSession(database.db, clock, cookies));
  const auth = createAuthService({
    db: database.db,
    clock,
    hmacKey: deps.secrets.hmacKey,
    requestAccountMail: deps.sendMail,
    // A new account's first application starts in the round open now that closes first.
    openApplication: (tx, userId) => openApplication(tx, userId, clock.now()),
  });

  await app.register(authRoutes, { config, auth, db: database.db, clock, cookies });
  const documentService = createDocumentService({
    db: database.db,
    storage: deps.storage,
    clock,
    logger,
    enqueue: deps.enqueueConversion,
    conversionTimeoutMs: config.conversionTimeoutMs,
    timeZone: deps.partner.timeZone,
  });
  const applicationService = createApplicationService({
    db: database.db,
    clock,
    encryptionKey: deps.secrets.encryptionKey,
    partner: deps.partner,
    sendMail: deps.sendMail,
    files: documentService,
    queueWebhooks: deps.queueWebhooks,
  });
  // The applicant's current application, resolved once per request for every applicant route.
  const applicant = createApplicantResolver(database.db, clock);
  await app.register(applicationRoutes, {
    config,
    clock,
    service: applicationService,
    applicant,
  });
  await app.register(documentRoutes, { service: documentService, applicant });
  const checklistService = createChecklistService({
    db: database.db,
    clock,
    partner: deps.partner,
    storage: deps.storage,
    encryptionKey: deps.secrets.encryptionKey,
    hmacKey: deps.secrets.hmacKey,
    mailLimits: { burst: config.mailPerAddressBurst, perHour: config.mailPerAddressPerHour },
    publicUrl: config.publicUrl,
    logger,
    sendMail: deps.sendMail,
    queueConversion: deps.enqueueChecklistConversion,
    queueWebhooks: deps.queueWebhooks,
  });
  await app.register(checklistRoutes, { config, service: checklistService, applicant });
  if (deps.storage.kind === 'local') {
    const { store } = documentService;
    await app.register(localUploadRoute, {
      ...LOCAL_UPLOAD,
      storage: deps.storage as LocalStorage,
      receipts: {
        claim: (key) => store.claimUploadReceipt(key, clock.now()),
        record: (key, bytes) => store.recordUploadedBytes(key, bytes),
        release: (key) => store.releaseUploadReceipt(key, clock.now()),
      },
    });
  }
  const pdfService = createApplicationPdfService({
    db: database.db,
    storage: deps.storage,
    clock,
    logger,
    partner: deps.partner,
    encryptionKey: deps.secrets.encryptionKey,
    downloadLinkKey: deps.secrets.downloadLinkKey,
    enqueue: deps.enqueuePdf,
    render: deps.renderPdf,
  });
  await app.register(pdfRoutes, { service: pdfService, applicant });
  await app.register(serviceRoutes, {
    config,
    db: database.db,
    clock,
    serviceTokenKey: deps.secrets.serviceTokenKey,
    pdf: pdfService,
    isApiKeyLive: (id) => isApiKeyLive(database.db, id),
  });
  await registerStaffArea(app, {
    config,
    database,
    clock,
    logger,
    storage: deps.storage,
    ...(deps.queue ? { queue: deps.queue } : {}),
    secrets: deps.secrets,
    pdf: pdfService,
    partner: deps.partner,
    checklist: checklistService,
  });
  const lookupService = createLookupService({
    database,
    addressProvider: createAddressProvider(config.addressProvider, database),
  });
  await app.register(lookupRoutes, { config, service: lookupService });
  await registerSpa(app, config.webDist);
  return app;
}
