import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { MESSAGES } from '@admissions/api-contract';
import type { Config } from '../config';
import { AppError } from '../lib/app-error';

/**
 * Load shedding: while the event loop lags or the heap is past its limit (sampled every
 * second), every request — /health included, so a balancer stops sending this process work —
 * answers 503 {message, code: 'OVERLOADED'} with Retry-After before any work is done for it.
 * GET /metrics opts out with its own pressureHandler.
 */
export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  const retryAfter = String(config.busyRetryAfterSeconds);
  let lastWarning = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    maxHeapUsedBytes: config.maxHeapUsedMb * 1024 * 1024,
    pressureHandler: (request, _reply, type, value) => {
      // One line per 10 s, not one per refused request, while it lasts.
      if (Date.now() - lastWarning > 10_000) {
        lastWarning = Date.now();
        request.log.warn({ pressure: type, value }, 'shedding load');
      }
      // A rejected promise goes to the error handler: the one {message, code} shape.
      return Promise.reject(
        new AppError('OVERLOADED', MESSAGES.unavailable, {
          headers: { 'retry-after': retryAfter },
        }),
      );
    },
  });
}
