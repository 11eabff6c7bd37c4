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

/** The origin of a URL or an Origin header, normalised (case, default port); null if it has none. */
function readOrigin(value: string): string | null {
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The origin the request was sent to: its scheme and Host header. Fastify reads X-Forwarded-Proto
 * and X-Forwarded-Host only from a proxy TRUST_PROXY names; otherwise the connection's own.
 */
function readRequestOrigin(request: FastifyRequest): string | null {
  return readOrigin(`${request.protocol}://${request.host}`);
}

/**
 * Whether a browser says a state change comes from another site. `Sec-Fetch-Site` (which no page
 * can set or forge) decides when present: `same-origin`, or `none` (typed or bookmarked), is the
 * application's own page, whatever host name it was opened under (http://127.0.0.1:3000 as well
 * as PUBLIC_URL's http://localhost:3000, or a second host name of the same server); anything else
 * (`same-site`, `cross-site`) is refused. A browser too old to send it still sends `Origin`, which
 * must then be PUBLIC_URL's origin or the origin the request was made to (scheme and Host): a page
 * of another site cannot make a browser send a Host or an Origin other than the real ones. A
 * client that sends neither header (curl, the CLI, tests) is not a browser and carries no ambient
 * cookies to abuse.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const header = request.headers.origin;
  if (header === undefined) return false;
  const origin = readOrigin(header);
  return origin === null || (origin !== publicOrigin && origin !== readRequestOrigin(request));
}

/**
 * CSRF defence in depth beside the SameSite=Lax session cookie: a state change is refused (403)
 * when the browser says it comes from another site (isCrossSite). Runs at onRequest, before the
 * rate limit, the session lookup and the body.
 */
export function registerCrossSiteGuard(app: FastifyInstance, config: Config): void {
  const publicOrigin = new URL(config.publicUrl).origin;
  // Callback style: a synchronous check need not cost a promise and a microtask per request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isStateChanging(request) || !isCrossSite(request, publicOrigin)) return done();
    done(new AppError('CROSS_SITE', REQUEST_GUARD_MESSAGES.crossSite));
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
