import type { FastifyInstance } from 'fastify';

/**
 * One log line per request, written when it completes: method, URL (query values redacted by the
 * logger's serializer), client address, status and time. Log collectors get what Fastify's own
 * "incoming request" + "request completed" pair gave them, at half the writes. A terminal
 * (LOG_FORMAT=text) gets none: there they drown what matters.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // At debug only: when a request arrived, before its body. Not registered at all otherwise, so
  // the default level does not pay a hook per request for a line it drops.
  if (app.log.level === 'debug' || app.log.level === 'trace') {
    app.addHook('onRequest', async (request) => {
      request.log.debug({ req: request }, 'incoming request');
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });
}
