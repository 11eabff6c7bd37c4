import path from 'node:path';
import pinoPretty from 'pino-pretty';
import { ConfigError, loadConfig, type Config } from '../platform/config';
import { describePostgres } from '../platform/db/command-database';
import { createLogger } from '../platform/logging/logger';
import { createServerLogDestination } from '../platform/logging/server-log-destination';
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
  const logs = createServerLogDestination();
  const logger = createLogger(
    config.logLevel,
    config.logFormat === 'text'
      ? pinoPretty({
          destination: logs.stream,
          colorize: process.stdout.isTTY,
          translateTime: 'SYS:HH:MM:ss',
          ignore: 'pid,hostname',
          singleLine: true,
        })
      : logs.stream,
  );
  const runtime = await startRuntime(config, {
    logger,
    warmConversionPool: true,
    warmPdfRenderer: true,
  });
  await runtime.app.listen({ port: config.port, host: config.host });
  logger.info(describeReady(config), `Ready: ${formatReady(config)}`);

  // A log line is never worth a failed exit: the write may throw (EPIPE) or the line be lost.
  const log = (write: () => void) => {
    try {
      write();
    } catch {
      // Logging is best effort during shutdown.
    }
  };
  const exitNow = (code: number) => {
    logs.abandon();
    process.exit(code);
  };

  // SIGTERM/SIGINT: stop listening, drain requests, let jobs finish (or return them to their
  // queue), close the database and exit 0 — all within SHUTDOWN_TIMEOUT_MS. The exit at the
  // budget's end is armed before anything else, so neither a stuck close nor a log destination
  // that fails or blocks keeps the process (and the LibreOffice processes it has to reap) alive;
  // it exits 1. A second signal exits 1 at once.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(() => logger.warn({ signal }, 'second signal: exiting without waiting'));
      exitNow(1);
    }
    stopping = true;
    const budget = config.shutdownTimeoutMs;
    const startedAt = Date.now();
    setTimeout(() => {
      log(() => logger.error('shutdown did not finish in time'));
      exitNow(1);
    }, budget - 100).unref();
    // What is left after the deadline is for closing the pools and writing the last lines.
    const deadline = startedAt + budget - Math.min(2500, Math.floor(budget / 3));
    log(() => logger.info({ signal, timeoutMs: budget }, 'shutting down'));
    let code = 0;
    try {
      await runtime.close({ deadline });
      log(() => logger.info('stopped'));
    } catch (error) {
      log(() => logger.error({ err: error }, 'shutdown failed'));
      code = 1;
    }
    await logs.flush(Math.max(0, Math.min(500, startedAt + budget - 200 - Date.now())));
    exitNow(code);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
