import Fastify, { type FastifyInstance } from 'fastify';
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

/** Helmet with the hardened CSP of docs/design-decisions.md, 11, no-store on API answers, rate limits. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const headers = await computeHelmetHeaders(helmetOptions(config));
  // Every response, errors and the SPA included, as helmet's own global hook did.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
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
