import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { serializeRequest } from '../logging/logger';

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
  // The line pino would write for info({reqId, req, res, responseTime}, 'request completed'),
  // built here from the few fields it has and handed to the logger's destination: pino's generic
  // path (its per-field serializer and stringify walk) was ~2 % of an autosave's CPU. No field
  // holds anything a redaction path names (the URL's query values are redacted by
  // serializeRequest). Fastify binds the same reqId to request.log.
  const logger = app.log as unknown as Logger;
  // pino's documented symbols (pino.symbols): its destination and the bound fields, written out.
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as { write(line: string): void };
  const bound = internals[pino.symbols.chindingsSym] as string;
  app.addHook('onResponse', (request, reply, done) => {
    if (logger.isLevelEnabled('info')) {
      const line =
        `{"level":30,"time":${Date.now()}${bound}` +
        `,"reqId":${JSON.stringify(request.id)},"req":${JSON.stringify(serializeRequest(request))}` +
        `,"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime}` +
        `,"msg":"request completed"}\n`;
      stream.write(line);
    }
    done();
  });
}
