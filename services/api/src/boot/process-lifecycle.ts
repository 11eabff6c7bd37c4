// How a long-running process of the service (the server, `npm run cli -- worker`) ends on
// SIGTERM/SIGINT: one path for both, so a deploy stops them the same way.
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Config } from '../platform/config';
import type { HeldSignals } from './held-signals';
import { createLogger } from '../platform/logging/logger';
import {
  createServerLogDestination,
  type ServerLogDestination,
} from '../platform/logging/server-log-destination';

/** Only a terminal's text format needs it: JSON logs (production) start without loading it. */
function loadPinoPretty(): typeof PinoPretty {
  return createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
}

/**
 * The process's logger: JSON lines for production (LOG_FORMAT=json), one readable line each for
 * a terminal (text); written asynchronously, flushed or abandoned by stopOnSignals.
 */
export function createProcessLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): {
  logger: Logger;
  logs: ServerLogDestination;
} {
  const logs = createServerLogDestination();
  const pretty =
    config.logFormat === 'text'
      ? loadPinoPretty()({
          destination: logs.stream,
          colorize: process.stdout.isTTY,
          translateTime: 'SYS:HH:MM:ss',
          ignore: 'pid,hostname',
          singleLine: true,
        })
      : undefined;
  const logger = createLogger(config.logLevel, pretty ?? logs.stream);
  // At exit the lines still inside pino-pretty's transform go out too.
  return { logger, logs: pretty ? { ...logs, flush: (ms) => logs.flush(ms, pretty) } : logs };
}

export interface StopOnSignalsOptions {
  logger: Logger;
  /** SHUTDOWN_TIMEOUT_MS: the whole stop, closing included, fits in it. */
  budgetMs: number;
  /** Stops the process's work; requests and jobs get until `deadline` (epoch ms). */
  close(deadline: number): Promise<void>;
  logs: ServerLogDestination;
  /** Signals the entry point held while the process started: one received then stops it now. */
  held?: HeldSignals;
}

/**
 * Stop listening, drain requests, let jobs finish (or return them to their queue), close the
 * database and exit 0 — all within the budget. The exit at the budget's end is armed before
 * anything else, so neither a stuck close nor a log destination that fails or blocks keeps the
 * process (and the LibreOffice processes it has to reap) alive; it exits 1. A second signal
 * exits 1 at once.
 */
export function stopOnSignals({ logger, budgetMs, close, logs, held }: StopOnSignalsOptions): void {
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
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(() => logger.warn({ signal }, 'second signal: exiting without waiting'));
      exitNow(1);
    }
    stopping = true;
    const startedAt = Date.now();
    setTimeout(() => {
      log(() => logger.error('shutdown did not finish in time'));
      exitNow(1);
    }, budgetMs - 100).unref();
    // What is left after the deadline is for closing the pools (a LibreOffice still starting
    // from boot included) and writing the last lines: up to 3 s, at most half the budget.
    const deadline = startedAt + budgetMs - Math.min(3000, Math.floor(budgetMs / 2));
    log(() => logger.info({ signal, timeoutMs: budgetMs }, 'shutting down'));
    let code = 0;
    try {
      await close(deadline);
      log(() => logger.info('stopped'));
    } catch (error) {
      log(() => logger.error({ err: error }, 'shutdown failed'));
      code = 1;
    }
    await logs.flush(Math.max(0, Math.min(500, startedAt + budgetMs - 200 - Date.now())));
    exitNow(code);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  held?.release();
  const early = held?.received();
  if (early) void stop(early);
}
