// Errors cross the process boundary as plain data and are rebuilt with their type on this side,
// so that a DocumentRejectedError thrown by a converter in a child is the same error here.
import { DocumentRejectedError, type RejectionCode } from '../conversion/conversion-errors';

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  detail?: string;
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof DocumentRejectedError) {
    return { name: error.name, message: error.message, code: error.code, detail: error.detail };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message, stack: e.stack };
}

export function reviveError(serialized: SerializedError): Error {
  if (serialized.name === 'DocumentRejectedError' && serialized.code) {
    return new DocumentRejectedError(serialized.code as RejectionCode, serialized.detail);
  }
  const error = new Error(serialized.message);
  error.name = serialized.name;
  // The child's stack says where it failed; this side's would only say "in the pool".
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
