// Errors cross the process boundary as plain data. A task's own error kind travels as its name
// and, where it has them, a string `code` and `detail`; the feature that ran the task turns that
// back into its own error type (the sandbox knows no feature's errors).
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  detail?: string;
}

/** An error a task threw in a child, as this side sees it: its name, code and detail kept. */
export class SandboxTaskError extends Error {
  constructor(
    serialized: SerializedError,
    readonly code?: string,
    readonly detail?: string,
  ) {
    super(serialized.message);
    this.name = serialized.name;
    // The child's stack says where it failed; this side's would only say "in the pool".
    if (serialized.stack) this.stack = serialized.stack;
  }
}

export function serializeError(error: unknown): SerializedError {
  const e = error instanceof Error ? error : new Error(String(error));
  const { code, detail } = e as { code?: unknown; detail?: unknown };
  return {
    name: e.name,
    message: e.message,
    stack: e.stack,
    code: typeof code === 'string' ? code : undefined,
    detail: typeof detail === 'string' ? detail : undefined,
  };
}

export function reviveError(serialized: SerializedError): Error {
  return new SandboxTaskError(serialized, serialized.code, serialized.detail);
}
