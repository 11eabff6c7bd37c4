import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { ERROR_CODES, MESSAGES, type ErrorCode } from '@admissions/api-contract';
import type { Config } from '../config';
import { registerLoadShedding } from './load-shedding';

// /metrics too: when disabled it must be a JSON 404, never the SPA.
export const API_PREFIXES = [
  '/api/',
  '/public/',
  '/lookup/',
  '/service/',
  '/staff/api/',
  '/staff/auth/',
  '/health',
  '/metrics',
];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

function helmetOptions(config: Config): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets CSS variables through style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: config.publicUrl.startsWith('https:') ? [] : null,
      },
    },
    strictTransportSecurity: config.publicUrl.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
  };
}

/**
 * The headers helmet sets with `options`, worked out once. @fastify/helmet builds helmet's
 * middleware again for every request (parsing the CSP directives each time); the options hold
 * nothing per request (no nonces, no functions), so one run on a throwaway instance gives what
 * every response gets.
 */
async function computeHelmetHeaders(
  options: FastifyHelmetOptions,
): Promise<[string, string | string[]][]> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get('/', (_request, reply) => {
      // Only what helmet's onRequest hook put on the response so far, names spelled as it set
      // them (they go on the wire so).
      // getRawHeaderNames is Node's (since 15.13); @types/node 20 does not declare it.
      const raw = reply.raw as typeof reply.raw & { getRawHeaderNames(): string[] };
      void reply.send(raw.getRawHeaderNames().map((name) => [name, raw.getHeader(name)]));
    });
    const response = await probe.inject({ method: 'GET', url: '/' });
    const set = response.json<[string, string | number | string[]][]>();
    return set.map(([name, value]) => [name, Array.isArray(value) ? value : String(value)]);
  } finally {
    await probe.close();
  }
}

// The headers of a JSON answer (OWASP REST Security Cheat Sheet): it is no document a browser
// renders, so its policy allows nothing at all. Helmet's other headers are about pages (opener,
// origin clusters, DNS prefetch, IE's download and XSS filters, Flash policy files) and cost
// ~400 bytes on every autosave answer. Cross-Origin-Resource-Policy stays: it keeps another
// site's <script> or <img> from pulling an applicant's JSON into its own process.
const API_CSP = "default-src 'none';base-uri 'none';object-src 'none';frame-ancestors 'none'";
const API_HEADER_NAMES = new Set([
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
]);

/** The page headers cut down to what a JSON answer needs (see API_CSP). */
function selectApiHeaders(pageHeaders: [string, string | string[]][]): [string, string][] {
  const kept: [string, string][] = [['Content-Security-Policy', API_CSP]];
  for (const [name, value] of pageHeaders) {
    if (API_HEADER_NAMES.has(name.toLowerCase())) kept.push([name, String(value)]);
  }
  return kept;
}

function isJsonReply(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('application/json');
}

/**
 * Helmet with the hardened CSP of docs/design-decisions.md, 11 on pages, the JSON answer's set
 * on API answers, no-store on API answers, rate limits.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const pageHeaders = await computeHelmetHeaders(helmetOptions(config));
  const apiHeaders = selectApiHeaders(pageHeaders);
  // Every response, errors and the SPA included, as helmet's own global hook did; set before
  // anything can refuse the request, so a refusal carries them too.
  app.addHook('onRequest', (request, reply, done) => {
    const headers = isApiPath(request.url) ? apiHeaders : pageHeaders;
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiPath(request.url)) {
      reply.header('cache-control', 'no-store');
      // A PDF or the metrics text under an API path is shown by the browser as a document: it
      // gets the page's whole set.
      if (!isJsonReply(reply)) {
        for (const [name, value] of pageHeaders) reply.raw.setHeader(name, value);
      }
    }
    done(null, payload);
  });

  // Before the rate limit: a process that is already behind does no more work for the request.
  await registerLoadShedding(app, config);

  // One counter per account or IP across every API process when REDIS_URL is set; otherwise per
  // process.
  // ioredis loads only when it is used.
  const redis: Redis | undefined = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
      })
    : undefined;
  if (redis) {
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store error'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: true,
    ...(redis
      ? {
          redis,
          nameSpace: 'admissions-rate-limit:',
          // Redis down: serve rather than refuse everyone (account lockout stays in the database).
          skipOnError: true,
        }
      : {}),
    // No X-RateLimit-* on every answer below the limit (three headers on each autosave that no
    // client reads); a 429 still carries the limit, remaining, reset and Retry-After.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    // Signed-in requests count per account, whatever address they come from: a school lab
    // behind one address is many applicants, each autosaving. Requests without a session count
    // per IP. The session is resolved at onRequest, before this route-level hook (session-gate.ts).
    keyGenerator: (request) =>
      request.sessionUser ? `account:${request.sessionUser.userId}` : `ip:${request.ip}`,
    max: (request) => (request.sessionUser ? config.accountRateLimit : config.globalRateLimit),
    timeWindow: 60_000,
    errorResponseBuilder: (_request, context) => ({
      statusCode: ERROR_CODES.RATE_LIMITED.status,
      code: 'RATE_LIMITED' satisfies ErrorCode,
      message: MESSAGES.rateLimited,
      retryAfter: context.after,
    }),
  });
}

/** Per-IP limit for one unauthenticated route (each route counts separately). */
export function publicRouteLimit(config: Config) {
  return { rateLimit: { max: config.publicRateLimit, timeWindow: 60_000 } };
}
