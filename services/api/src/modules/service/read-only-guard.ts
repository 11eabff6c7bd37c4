import type { FastifyInstance } from 'fastify';
import { SERVICE_MESSAGES, STAFF_ROUTES } from '@admissions/api-contract';
import { AppError } from '../../platform/lib/app-error';

export const SERVICE_PREFIX = '/service/';
export const SERVICE_TOKEN_PARAM = 'service_token';

function carriesServiceToken(url: string): boolean {
  const q = url.indexOf('?');
  return q !== -1 && new URLSearchParams(url.slice(q + 1)).has(SERVICE_TOKEN_PARAM);
}

/**
 * Service access is read-only (docs/design-decisions.md, 9): every method but GET on /service/*, and every method
 * but GET/HEAD anywhere when the request carries a service token, is refused with 403 before
 * routing, authentication or body parsing, so nothing can change.
 */
export function registerReadOnlyGuard(app: FastifyInstance): void {
  // Callback style: a synchronous check need not cost a promise and a microtask per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const { method, url } = request;
    const onServiceRoute = url.startsWith(SERVICE_PREFIX) || url === '/service';
    // The one write on /service/: minting a token with an API key (it changes no applicant data).
    const mintsToken =
      method === 'POST' &&
      url.split('?')[0] === STAFF_ROUTES.serviceTokens &&
      !carriesServiceToken(url);
    const refused = onServiceRoute
      ? method !== 'GET' && !mintsToken
      : method !== 'GET' && method !== 'HEAD' && carriesServiceToken(url);
    done(refused ? new AppError('SERVICE_READ_ONLY', SERVICE_MESSAGES.readOnly) : undefined);
  });
}
