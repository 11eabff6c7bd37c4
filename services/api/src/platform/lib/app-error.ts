/**
 * The one error type routes throw on purpose: a stable code for clients and logs, a message
 * that is safe to show an applicant, and the HTTP status. Anything else becomes a hidden 500.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra fields for the JSON body beside message and code (e.g. submit's `errors`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
