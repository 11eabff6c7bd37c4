import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../lib/app-error';

export const BODY_DEADLINE_MESSAGE = 'The request body took too long to arrive.';

/**
 * Node checks its own requestTimeout only every 30 s (connectionsCheckingInterval), so a body
 * trickled a byte at a time held its connection and its parser for up to a minute past
 * REQUEST_TIMEOUT_MS. Here each body gets REQUEST_TIMEOUT_MS from the moment its parsing starts
 * (just after the headers): a JSON body still incomplete then is answered 408 and the connection
 * closed; an upload (multipart, streamed by its route) has its connection cut.
 */
export function registerBodyDeadline(
  app: FastifyInstance,
  config: Pick<Config, 'requestTimeoutMs'>,
) {
  const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  // Callback style: no promise and microtask per request for what is synchronous.
  app.addHook('preParsing', (request, reply, payload, done) => {
    // A request without Content-Length or Transfer-Encoding has no body to wait for (RFC 9112
    // §6.3). Fastify never reads it, so a guard would stay open and its timer would destroy a
    // stream nobody listens to: an uncaught error on a slow route.
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (request.raw.complete || !hasBody) return done(null, payload);
    const streamedByRoute = (request.headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('multipart/');
    const guarded = streamedByRoute ? undefined : new PassThrough();
    const timer = setTimeout(() => {
      if (request.raw.complete) return;
      request.log.warn({ timeoutMs: config.requestTimeoutMs }, 'request body too slow: cut');
      if (guarded && !reply.sent) {
        payload.unpipe(guarded);
        reply.header('connection', 'close');
        guarded.destroy(new AppError('REQUEST_TIMEOUT', BODY_DEADLINE_MESSAGE));
        // The client may keep sending: once the answer is written, the connection goes.
        reply.raw.once('finish', () => request.raw.socket?.destroy());
      } else {
        request.raw.socket?.destroy();
      }
    }, config.requestTimeoutMs);
    timer.unref();
    timers.set(request, timer);
    // The deadline is for the body to arrive, not for the route to answer: once the last byte is
    // in, a slow handler must not find its finished body stream destroyed (nobody would listen for
    // that error any more). `complete` says so for Node's own requests; 'end' also for the
    // requests the tests inject, which have no `complete`.
    payload.once('end', () => clearTimeout(timer));
    if (!guarded) return done(null, payload);
    payload.once('error', (error) => guarded.destroy(error));
    payload.once('aborted', () => guarded.destroy(new Error('request aborted')));
    payload.pipe(guarded);
    done(null, guarded);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    clearTimeout(timers.get(request));
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    clearTimeout(timers.get(request));
    done();
  });
}
