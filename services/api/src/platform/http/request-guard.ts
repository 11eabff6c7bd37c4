import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_ROUTES } from '@admissions/api-contract';
import type { Config } from '../config';
import { AppError } from '../lib/app-error';

export const REQUEST_GUARD_MESSAGES = {
  crossSite: 'This request came from another website and was refused.',
  json: 'Requests must be sent as JSON (Content-Type: application/json).',
  multipart: 'Uploads must be sent as multipart/form-data.',
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that changes something: any method but GET/HEAD/OPTIONS, and GET /api/logout, which
 * docs/api.md names as a GET but ends the session.
 */
export function isStateChanging(request: FastifyRequest): boolean {
  if (!SAFE_METHODS.has(request.method)) return true;
  return request.method === 'GET' && request.routeOptions.url === API_ROUTES.logout;
}

/** The media type without parameters, lower case ("application/json; charset=utf-8" → "application/json"). */
function readMediaType(request: FastifyRequest): string {
  const header = request.headers['content-type'] ?? '';
  return header.split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * CSRF defence in depth beside the SameSite=Lax session cookie: a state change is refused (403)
 * when the browser says it comes from another site — `Sec-Fetch-Site` other than `same-origin`
 * or `none` (typed or bookmarked), or an `Origin` that is not PUBLIC_URL's. Clients that send
 * neither header (curl, the CLI, tests) are not browsers and carry no ambient cookies to abuse.
 * Runs at onRequest, before the rate limit, the session lookup and the body.
 */
export function registerCrossSiteGuard(app: FastifyInstance, config: Config): void {
  const publicOrigin = new URL(config.publicUrl).origin;
  // Callback style: a synchronous check need not cost a promise and a microtask per request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isStateChanging(request)) return done();
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const crossSite =
      (site !== undefined && site !== 'same-origin' && site !== 'none') ||
      (origin !== undefined && origin !== publicOrigin);
    done(crossSite ? new AppError('CROSS_SITE', REQUEST_GUARD_MESSAGES.crossSite) : undefined);
  });
}

/**
 * preParsing check of a state change's Content-Type: JSON everywhere (the SPA sends it on every
 * call, body or not), multipart/form-data on the upload route. Without it a "simple" request —
 * no Content-Type, text/plain, a form post — which a browser sends cross-site or from a same-site
 * page without a CORS preflight, could reach a route that needs no body (POST /api/submit).
 */
export function checkBodyType(request: FastifyRequest): void {
  if (!isStateChanging(request) || request.method === 'GET') return;
  const type = readMediaType(request);
  if (request.routeOptions.url === API_ROUTES.storageUpload) {
    if (type !== 'multipart/form-data') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', REQUEST_GUARD_MESSAGES.multipart);
    }
    return;
  }
  if (type !== 'application/json') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', REQUEST_GUARD_MESSAGES.json);
  }
}
