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

/** The error body and status of a code, for the answers sent without throwing. */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .headers(error.headers)
    .status(error.statusCode)
    .send({ ...error.details, message: error.message, code: error.code });
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
