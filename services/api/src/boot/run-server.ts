// The server once its entry point (server.ts) has read the configuration and begun to open the
// embedded database: the logger, the runtime, listening, and the signals that stop it.
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from '../platform/config';
import { describePostgres } from '../platform/db/command-database';
import { createProcessLogger, stopOnSignals } from './process-lifecycle';
import { startRuntime } from './runtime';

/** What someone who just ran `npm start` needs: where to open it and where its data goes. */
function describeReady(config: Config) {
  const dataDir = path.resolve(config.dataDir);
  return {
    address: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`,
    publicUrl: config.publicUrl,
    dataDir,
    database: config.databaseUrl
      ? describePostgres(config.databaseUrl)
      : `embedded (${path.join(dataDir, 'db')})`,
    mail: config.smtpUrl
      ? `SMTP (${new URL(config.smtpUrl).hostname})`
      : `outbox (${path.join(dataDir, 'outbox')})`,
  };
}

function formatReady(config: Config): string {
  const ready = describeReady(config);
  return `${ready.publicUrl} (listening on ${ready.address}) · data ${ready.dataDir} · database ${ready.database} · e-mail ${ready.mail}`;
}

export async function runServer(config: Config, openingPglite?: Promise<PGlite>): Promise<void> {
  const { logger, logs } = createProcessLogger(config);
  let markListening!: () => void;
  const listening = new Promise<void>((resolve) => (markListening = resolve));
  const runtime = await startRuntime(config, {
    logger,
    ...(openingPglite ? { openingPglite } : {}),
    warmConversionPool: true,
    warmPdfRenderer: true,
    warmAfter: listening,
  });
  await runtime.app.listen({ port: config.port, host: config.host });
  markListening();
  logger.info(describeReady(config), `Ready: ${formatReady(config)}`);

  stopOnSignals({
    logger,
    budgetMs: config.shutdownTimeoutMs,
    close: (deadline) => runtime.close({ deadline }),
    logs,
  });
}
