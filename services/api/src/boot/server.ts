import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../platform/config';
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

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { logger, logs } = createProcessLogger(config);
  let markListening!: () => void;
  const listening = new Promise<void>((resolve) => (markListening = resolve));
  const runtime = await startRuntime(config, {
    logger,
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
