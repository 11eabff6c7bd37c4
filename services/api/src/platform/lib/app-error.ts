import type { FastifyReply } from 'fastify';
import {
  ERROR_CODES,
  type CodeWithMessage,
  type ErrorCode,
  type OtherStatus,
} from '@admissions/api-contract';

export interface AppErrorOptions<C extends ErrorCode> {
  headers?: Record<string, string>;
  /** Extra fields for the JSON body beside message and code (e.g. submit's `errors`). */
  details?: Record<string, unknown>;
  /** Only a status ERROR_CODES gives the code (the S3-style upload's 403, Fastify's 413). */
  status?: (typeof ERROR_CODES)[C]['status'] | OtherStatus<C>;
}

type AppErrorArgs<C extends ErrorCode> = C extends CodeWithMessage
  ? [message?: string, options?: AppErrorOptions<C>]
  : [message: string, options?: AppErrorOptions<C>];

/**
 * The one error type routes throw on purpose: a stable code from ERROR_CODES for clients and
 * logs (its HTTP status comes with it), a message that is safe to show an applicant (the code's
 * own when it has one and none is given). Anything else becomes a hidden 500.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  constructor(
    readonly code: C,
    ...[message, options = {}]: AppErrorArgs<C>
  ) {
    const entry: { status: number; message?: string } = ERROR_CODES[code];
    super(message ?? entry.message ?? code);
    this.name = 'AppError';
    this.statusCode = options.status ?? entry.status;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

/** The most of an unread body a refusal reads and drops to keep its connection usable. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A refusal sent before the request's body has all arrived (401 at preParsing, 413, 415): the rest
 * of the body stayed unread on the connection, so a keep-alive client's next request on it was
 * never parsed and the socket was reset. The rest is read and dropped (as Node does for a body no
 * one reads), and the connection stays usable. A body of unknown or huge length is not worth
 * reading: the answer says `Connection: close` (closing at once, mid-body, would reset the
 * connection under the client and lose the answer with it).
 */
function settleUnreadBody(reply: FastifyReply): void {
  const raw = reply.request.raw;
  if (raw.complete) return;
  const length = Number(raw.headers['content-length']);
  if (raw.headers['transfer-encoding'] === undefined && length <= DRAIN_LIMIT_BYTES) {
    // Whatever a hook piped it into reads no more of it.
    raw.unpipe();
    raw.resume();
  } else {
    reply.header('connection', 'close');
  }
}

/** The error body and status of a code, for the answers sent without throwing. */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  settleUnreadBody(reply);
  return reply
    .headers(error.headers)
    .status(error.statusCode)
    .send({ ...error.details, message: error.message, code: error.code });
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
