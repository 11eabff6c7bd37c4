// The conversion side of a process: the LibreOffice pool, the converter (whose parsing runs in
// the sandbox children it is handed) and the pg-boss workers.
// The embedded server runs it in-process; `npm run cli -- worker` runs it on its own.
import type { Logger } from 'pino';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import type { JobQueue } from '../../platform/queue/job-queue';
import type { Clock } from '../../platform/lib/clock';
import { createDocumentConverter, type DocumentConverter } from './conversion/convert-document';
import { createOfficePool, type OfficePool } from './conversion/libreoffice/office-pool';
import type { SandboxPool } from '../../platform/sandbox/sandbox-pool';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createDocumentStore } from './document-store';
import { createDocumentPreviewer } from './document-preview';
import { startConversionWorker } from './conversion-jobs';

export interface ConversionRuntime {
  pool: OfficePool;
  /** The same checks and conversion for documents other modules receive (letters, requested items). */
  converter: DocumentConverter;
  stop(): Promise<void>;
}

export async function startConversionRuntime(options: {
  config: Config;
  db: Db;
  queue: JobQueue;
  storage: StorageDriver;
  clock: Clock;
  logger: Logger;
  /** The children that check and convert the bytes (the caller owns and closes it). */
  sandbox: SandboxPool;
}): Promise<ConversionRuntime> {
  const { config, logger } = options;
  const pool = createOfficePool({
    size: config.officePoolSize,
    timeoutMs: config.conversionTimeoutMs,
    recycleAfter: config.officeRecycleAfter,
    logger,
  });
  const converter = createDocumentConverter({
    pool,
    sandbox: options.sandbox,
    logger,
    timeoutMs: config.conversionTimeoutMs,
  });
  const stopWorker = await startConversionWorker({
    queue: options.queue,
    store: createDocumentStore(options.db),
    storage: options.storage,
    converter,
    previewer: createDocumentPreviewer({
      sandbox: options.sandbox,
      logger,
      timeoutMs: config.conversionTimeoutMs,
    }),
    clock: options.clock,
    logger,
    concurrency: config.conversionConcurrency,
    timeoutMs: config.conversionTimeoutMs,
  });
  return {
    pool,
    converter,
    async stop() {
      await stopWorker();
      await pool.close();
    },
  };
}
