import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { FastifyRequest } from 'fastify';
import { SENSITIVE_ANSWER_KEYS } from '@admissions/form';

// Query parameters whose values may appear in logs; every other value (tokens, ids, e-mails,
// codes) is replaced, because reset links and service tokens travel in query strings.
const LOGGABLE_QUERY_KEYS = new Set(['category', 'max_results', 'format']);

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const kept: string[] = [];
  for (const [key, value] of params) {
    kept.push(`${key}=${LOGGABLE_QUERY_KEYS.has(key) ? encodeURIComponent(value) : '[REDACTED]'}`);
  }
  return `${url.slice(0, q)}?${kept.join('&')}`;
}

/** A request as a log line holds it: method, URL with its query values redacted, address. */
export function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/**
 * drizzle reports a failed query as DrizzleQueryError, whose message, stack and `params` hold the
 * query's parameters — an applicant's answers, e-mail, hashes. Logged errors keep the SQL and the
 * driver's cause, never the parameters.
 */
function redactQueryError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const cause = redactQueryError(error.cause, depth + 1);
  if (!('params' in error && 'query' in error)) {
    if (cause === error.cause) return error;
    const copy = Object.assign(
      Object.create(Object.getPrototypeOf(error) as object) as Error,
      error,
    );
    copy.message = error.message;
    copy.stack = error.stack;
    copy.cause = cause;
    return copy;
  }
  const safe = new Error(`Failed query: ${String(error.query)}`, { cause });
  safe.name = error.name;
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line)) ?? [];
  safe.stack = [`${safe.name}: ${safe.message}`, ...frames].join('\n');
  return safe;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          'res.headers["set-cookie"]',
          '*.password',
          '*.confirm_password',
          '*.code',
          // The same keys logged at the top of a record (`log.info({ password }, …)`): `*.x`
          // reaches one level down only. Not `code`, which names an error or a rejection there.
          'password',
          'confirm_password',
          // Whatever the definition marks sensitive: SSN, A-Number, the disciplinary comments.
          ...SENSITIVE_ANSWER_KEYS.flatMap((key) => [key, `*.${key}`]),
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        err: (error: unknown) => pino.stdSerializers.err(redactQueryError(error) as Error),
        req: serializeRequest,
      },
    },
    destination,
  );
}
