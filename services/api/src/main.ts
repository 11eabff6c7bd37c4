import { ConfigError, loadConfig } from './config';
import { createLogger } from './lib/logger';
import { startRuntime } from './runtime';

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
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, {
    logger,
    warmConversionPool: true,
    warmPdfRenderer: true,
  });
  await runtime.app.listen({ port: config.port, host: config.host });

  // SIGTERM/SIGINT: stop listening, drain requests, let jobs finish (or return them to their
  // queue) within SHUTDOWN_TIMEOUT_MS, close the database, exit 0. A second signal, or a close
  // that hangs well past the deadline, ends the process at once with 1.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    const deadline = Date.now() + config.shutdownTimeoutMs;
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown did not finish in time');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000).unref();
    try {
      await runtime.close({ deadline });
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
