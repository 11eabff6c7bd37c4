import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request arrived, on the app's clock (registerReceiptTime). */
    receivedAt: Date | null;
  }
}

/**
 * Records when each request arrived, before any other hook does work: a deadline is judged by
 * the receipt time (a submit received before it succeeds however long it takes), and a submit
 * records it as `submitted_at`. Registered first, so neither the session look-up nor a wait for
 * a lock moves it.
 */
export function registerReceiptTime(app: FastifyInstance, clock: Clock): void {
  app.decorateRequest('receivedAt', null);
  app.addHook('onRequest', (request, _reply, done) => {
    request.receivedAt = clock.now();
    done();
  });
}

/** The request's receipt time (registerReceiptTime); the clock's time if it was never taken. */
export function readReceiptTime(request: FastifyRequest, clock: Clock): Date {
  return request.receivedAt ?? clock.now();
}
