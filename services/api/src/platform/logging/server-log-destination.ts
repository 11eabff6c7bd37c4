import pino from 'pino';

/** Log lines kept in memory while stdout cannot take them; past this they are dropped. */
const MAX_BUFFERED_LOG_BYTES = 16 * 1024 * 1024;
/**
 * Lines are written in batches of at least this many bytes: one write per line (one per request)
 * was a tenth of an autosave's CPU in the API process. A quieter server writes what it has every
 * LOG_FLUSH_INTERVAL_MS, so a line is never more than that late.
 */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_INTERVAL_MS = 100;

export interface ServerLogDestination {
  stream: pino.DestinationStream;
  /**
   * Writes out what is buffered, waiting at most `ms`; nothing is written after it. `head` is
   * the stream the logger writes to when it is not this one (pino-pretty's, which pipes here).
   */
  flush(ms: number, head?: NodeJS.WritableStream): Promise<void>;
  /** Stops writing at once: nothing left is written, not even at exit. */
  abandon(): void;
}

/**
 * The server's stdout, written so that logging can never hold the process: asynchronously (a
 * synchronous write to a pipe nobody reads spins until the reader drains it, blocking every
 * request and the SIGTERM handler with them), a bounded buffer while the reader is slow, nothing
 * at all once the reader has gone (EPIPE), and no flush at exit that could wait on a full pipe.
 */
export function createServerLogDestination(): ServerLogDestination {
  const stream = pino.destination({
    fd: 1,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    maxLength: MAX_BUFFERED_LOG_BYTES,
  });
  // sonic-boom keeps the length of what waits in `_len` (no public getter): an idle server makes
  // no empty writes.
  const state = stream as unknown as { _len?: number; destroyed?: boolean };
  setInterval(() => {
    if (state.destroyed || state._len === 0) return;
    try {
      stream.flush();
    } catch {
      // Destroyed meanwhile: nothing more is written.
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  // pino already stops writing on EPIPE; any other write error loses log lines, never the process.
  stream.on('error', () => undefined);
  // Writes to a closed pipe also raise EPIPE on these streams (console.*, a library's warning).
  for (const std of [process.stdout, process.stderr]) std.on('error', () => undefined);
  return {
    stream,
    async flush(ms, head) {
      // Not sonic-boom's flush(cb): with minLength 0 it called back at once, even with a write in
      // flight and lines queued behind it, and the last lines ('stopped') were lost at exit.
      // end() writes out everything queued, whatever minLength, then emits 'close' (fd 1 itself
      // stays open); ending pino-pretty's stream first lets the lines it holds through too.
      await Promise.race([
        new Promise<void>((resolve) => {
          stream.once('close', () => resolve());
          stream.once('error', () => resolve());
          try {
            (head ?? stream).end();
          } catch {
            resolve();
          }
        }),
        new Promise<void>((resolve) => setTimeout(resolve, ms).unref()),
      ]);
    },
    abandon() {
      // A destroyed stream is skipped by pino's exit-time flushSync.
      try {
        stream.destroy();
      } catch {
        // Already gone.
      }
    },
  };
}
