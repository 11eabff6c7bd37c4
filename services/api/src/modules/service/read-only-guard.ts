import type { FastifyInstance } from 'fastify';
import { SERVICE_MESSAGES, STAFF_ROUTES } from '@admissions/api-contract';
import { AppError } from '../../platform/lib/app-error';

export const SERVICE_PREFIX = '/service/';
export const SERVICE_TOKEN_PARAM = 'service_token';

/** The student system's return feed, the one write of application data an API key may make. */
const EXTERNAL_ID_PATH =
  /^\/service\/applications\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/external-id$/;

function decodePath(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  try {
    return decodeURIComponent(path) + (q === -1 ? '' : url.slice(q));
  } catch {
    return url;
  }
}

function carriesServiceToken(url: string): boolean {
  const q = url.indexOf('?');
  return q !== -1 && new URLSearchParams(url.slice(q + 1)).has(SERVICE_TOKEN_PARAM);
}

/**
 * Service access is read-only (docs/design-decisions.md, 9): every method but GET on /service/*
 * (but the two API-key writes below), and every method but GET/HEAD anywhere when the request
 * carries a service token, is refused with 403 before routing, authentication or body parsing,
 * so nothing else can change.
 */
export function registerReadOnlyGuard(app: FastifyInstance): void {
  // Callback style: a synchronous check need not cost a promise and a microtask per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const { method } = request;
    // Judged on the decoded path the router matches: "/%73ervice/…" is "/service/…" to it.
    const url = decodePath(request.url);
    const onServiceRoute = url.startsWith(SERVICE_PREFIX) || url.split('?')[0] === '/service';
    // The two writes on /service/, both with an API key and never with a token: minting a token
    // (it changes no applicant data) and storing the student system's ID (a `write-ids` key,
    // which may do nothing else).
    const path = url.split('?')[0] ?? '';
    const keyWrite =
      !carriesServiceToken(url) &&
      ((method === 'POST' && path === STAFF_ROUTES.serviceTokens) ||
        (method === 'PUT' && EXTERNAL_ID_PATH.test(path)));
    const refused = onServiceRoute
      ? method !== 'GET' && !keyWrite
      : method !== 'GET' && method !== 'HEAD' && carriesServiceToken(url);
    done(refused ? new AppError('SERVICE_READ_ONLY', SERVICE_MESSAGES.readOnly) : undefined);
  });
}
