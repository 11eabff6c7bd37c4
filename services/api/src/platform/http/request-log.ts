import type { FastifyInstance } from 'fastify';

/**
 * One log line per request, written when it completes: method, URL (query values redacted by the
 * logger's serializer), client address, status and time. Log collectors get what Fastify's own
 * "incoming request" + "request completed" pair gave them, at half the writes. A terminal
 * (LOG_FORMAT=text) gets none: there they drown what matters.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // At debug only (a no-op at the default level): when a request arrived, before its body.
  app.addHook('onRequest', async (request) => {
    request.log.debug({ req: request }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });
}
