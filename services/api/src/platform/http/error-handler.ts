import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@admissions/api-contract';
import { AppError, isAppError, sendAppError } from '../lib/app-error';

// Fastify's own client errors, reworded for a person.
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Requests must be sent as JSON (Content-Type: application/json).',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but JSON was expected.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request length does not match its body.',
};

// Connection-level failures of the database: the service is unavailable, not broken.
const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown (pg_ctl stop)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '53300', // too_many_connections
  '08006',
  '08001',
  '08003',
  '08000',
]);
const DATABASE_DOWN_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable/i;

/**
 * The driver's own error when `error` (or what it wraps: drizzle reports a failed query as a
 * DrizzleQueryError whose `cause` is the pg error) says the database cannot be reached.
 */
function findDatabaseOutage(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && DATABASE_DOWN_CODES.has(code)) return current;
    if (DATABASE_DOWN_MESSAGE.test(current.message)) return current;
    current = current.cause;
  }
  return undefined;
}

/** "body/foo" style paths from ajv, turned into a sentence naming the field. */
function describeValidationError(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return 'The request is not valid.';
  const where = error.validationContext ?? 'request';
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = first.params as Record<string, unknown>;
  switch (first.keyword) {
    case 'additionalProperties':
      return `Unknown field "${String(params.additionalProperty)}" in the ${where}.`;
    case 'required':
      return `The ${where} is missing the field "${String(params.missingProperty)}".`;
    case 'maxLength':
      return `The field "${field}" is too long (at most ${String(params.limit)} characters).`;
    case 'type':
      return `The field "${field || where}" must be ${String(params.type)}.`;
    case 'format':
      return params.format === 'date'
        ? `The field "${field}" must be a date that exists, written YYYY-MM-DD.`
        : `The field "${field || where}" is not a valid ${String(params.format)}.`;
    default:
      return `The field "${field || where}" ${first.message ?? 'is not valid'}.`;
  }
}

export function registerErrorHandling(app: FastifyInstance): void {
  // During an outage every request fails the same way: the first failure is logged whole, then
  // one line per 5 s says how many more there were, instead of one line per refused request.
  let outageLoggedAt = 0;
  let outageUnlogged = 0;
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(error)) return sendAppError(reply, error);
    if (error.validation) {
      return sendAppError(reply, new AppError('INVALID_REQUEST', describeValidationError(error)));
    }
    if (error.statusCode === 429) {
      return sendAppError(reply, new AppError('RATE_LIMITED', MESSAGES.rateLimited));
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known && error.statusCode && error.statusCode < 500) {
      // Fastify's status stays (413 too large, 415 not JSON): ERROR_CODES lists both.
      const status = error.statusCode as 400 | 413 | 415;
      return sendAppError(reply, new AppError('INVALID_REQUEST', known, { status }));
    }
    const outage = findDatabaseOutage(error);
    if (outage) {
      // The driver's error alone: the wrapper's message carries the query's parameters (answers).
      if (Date.now() - outageLoggedAt >= 5000) {
        request.log.error(
          { err: outage, alsoRefusedSinceLastLine: outageUnlogged },
          'database unavailable',
        );
        outageLoggedAt = Date.now();
        outageUnlogged = 0;
      } else {
        outageUnlogged++;
      }
      return sendAppError(
        reply,
        new AppError('UNAVAILABLE', MESSAGES.unavailable, { headers: { 'retry-after': '5' } }),
      );
    }
    // Everything else is our fault: log it whole, tell the client nothing of it.
    request.log.error({ err: error }, 'unhandled error');
    return sendAppError(reply, new AppError('INTERNAL', MESSAGES.unexpected));
  });
}
