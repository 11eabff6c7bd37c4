import type { ErrorCode } from '@admissions/api-contract';
import { ServerError } from '../../../shared/api/errors';

const ROUND_CLOSED: ErrorCode = 'ROUND_CLOSED';

/** A write refused because the application's round has closed (409 ROUND_CLOSED, issue #29). */
export function isRoundClosedError(error: unknown): error is ServerError {
  return error instanceof ServerError && error.code === ROUND_CLOSED;
}
