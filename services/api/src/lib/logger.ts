import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { FastifyRequest } from 'fastify';

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
          '*.ssn',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req(request: FastifyRequest) {
          return {
            method: request.method,
            url: redactUrl(request.url),
            remoteAddress: request.ip,
          };
        },
      },
    },
    destination,
  );
}
