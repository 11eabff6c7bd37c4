// The server once its entry point (server.ts) has read the configuration and begun to open the
// embedded database: the logger, the runtime, listening, and the signals that stop it.
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from '../platform/config';
import { describePostgres } from '../platform/db/command-database';
import type { HeldSignals } from './held-signals';
import { createProcessLogger, stopOnSignals } from './process-lifecycle';
import { startRuntime } from './runtime';

/**
 * What someone who just ran `npm start` needs: the one address to open (PUBLIC_URL, whose default
 * follows HOST) and where its data goes. The address it listens on stays in the JSON record for
 * operators (without a scheme); printed beside PUBLIC_URL as a link it read as a second address to
 * open, where sign-up, log-in and saving were refused.
 */
function describeReady(config: Config) {
  const dataDir = path.resolve(config.dataDir);
  return {
    publicUrl: config.publicUrl,
    // No scheme: not a link to click in a terminal.
    listening: `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`,
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
  return `open ${ready.publicUrl} · data ${ready.dataDir} · database ${ready.database} · e-mail ${ready.mail}`;
}

/**
 * How long after it listens the server begins its background work: the job workers' first polls,
 * LibreOffice and the PDF renderer's child, the DATA_DIR walk. Requests that waited for the start
 * (a load balancer's health check, browsers retrying through a restart) are answered first,
 * instead of queueing behind the workers' first fetches on PGlite's one engine (10–30 ms each
 * while cold) and the children's forks, which block this loop 5–40 ms each while the kernel copies
 * a process holding PGlite's memory: ~50 ms in all on the first answer (bench/startup-bench.ts).
 */
const BACKGROUND_WORK_DELAY_MS = 250;

export async function runServer(
  config: Config,
  openingPglite?: Promise<PGlite>,
  held?: HeldSignals,
): Promise<void> {
  const { logger, logs } = createProcessLogger(config);
  let startBackgroundWork!: () => void;
  let stopping = false;
  const backgroundWork = new Promise<void>((resolve) => (startBackgroundWork = resolve));
  const starting = startRuntime(config, {
    logger,
    ...(openingPglite ? { openingPglite } : {}),
    warmConversionPool: true,
    warmPdfRenderer: true,
    warmAfter: backgroundWork,
  });
  // From the start, not once listening: a first start (PostgreSQL's initdb, the migrations) takes
  // seconds, and a SIGTERM then (an orchestrator giving up, Ctrl-C) killed the process mid-write,
  // leaving the CLI's socket behind. Now the start finishes, nothing listens, and all closes; a
  // signal from before this point was held by the entry point (held-signals.ts).
  stopOnSignals({
    logger,
    budgetMs: config.shutdownTimeoutMs,
    close: async (deadline) => {
      stopping = true;
      const runtime = await starting;
      await runtime.close({ deadline });
    },
    logs,
    ...(held ? { held } : {}),
  });
  const runtime = await starting;
  if (stopping) return;
  await runtime.app.listen({ port: config.port, host: config.host });
  // Never after a stop began: the queue and the pools would be closing under it.
  setTimeout(() => {
    if (!stopping) startBackgroundWork();
  }, BACKGROUND_WORK_DELAY_MS);
  logger.info(describeReady(config), `Ready: ${formatReady(config)}`);
}
