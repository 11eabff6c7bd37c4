import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequireSession } from './require-session';
import { checkBodyType } from '../../platform/http/request-guard';
import { provideAccessGuard } from '../../platform/http/access';

/** The routes whose declared access is the applicant's session (endpoint-access.ts). */
function needsSession(request: FastifyRequest): boolean {
  return request.routeOptions.config.access?.kind === 'applicant';
}

/**
 * Guards the routes of `applicant` access. The session of such a route is looked up at onRequest — before the rate limit, which
 * counts signed-in requests per account (http/security.ts), and before anything reads the body —
 * and a request without one is refused at preParsing (401 whatever its body), after the rate
 * limit has counted it per IP. Then the Content-Type of a state change is checked, still before
 * parsing. The route's guard (preValidation) then reuses the session found here.
 */
export function registerSessionGate(app: FastifyInstance, requireSession: RequireSession): void {
  const refusals = new WeakMap<FastifyRequest, unknown>();
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!needsSession(request)) return;
    try {
      await requireSession(request, reply);
    } catch (error) {
      refusals.set(request, error);
    }
  });
  // Callback style: a synchronous check need not cost a promise and a microtask per request.
  app.addHook('preParsing', (request: FastifyRequest, _reply, payload, done) => {
    const refusal = refusals.get(request);
    if (refusal !== undefined) return done(refusal as Error);
    try {
      checkBodyType(request);
    } catch (error) {
      return done(error as Error);
    }
    done(null, payload);
  });
  provideAccessGuard(app, 'applicant', async (_access, request, reply) => {
    if (request.sessionUser) return;
    await requireSession(request, reply);
  });
}
