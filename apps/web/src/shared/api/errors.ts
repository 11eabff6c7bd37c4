// The two error kinds of docs/errors.md. Both carry the message the person sees as-is.

export class ServerError extends Error {
  override readonly name: string = 'ServerError';
  constructor(
    message: string,
    readonly status: number,
    /** The body's stable `code`, when the server gave one (act on it, never on the text). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A 401: the session is gone (or the credentials were refused on a public route). */
export class UnauthorizedError extends ServerError {
  override readonly name = 'UnauthorizedError';
  constructor(message: string) {
    super(message, 401);
  }
}

export function isUnauthorizedError(error: unknown): error is UnauthorizedError {
  return error instanceof UnauthorizedError;
}
