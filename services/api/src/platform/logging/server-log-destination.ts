import pino from 'pino';

/** Log lines kept in memory while stdout cannot take them; past this they are dropped. */
const MAX_BUFFERED_LOG_BYTES = 16 * 1024 * 1024;

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
    maxLength: MAX_BUFFERED_LOG_BYTES,
  });
  // pino already stops writing on EPIPE; any other write error loses log lines, never the process.
  stream.on('error', () => undefined);
  // Writes to a closed pipe also raise EPIPE on these streams (console.*, a library's warning).
  for (const std of [process.stdout, process.stderr]) std.on('error', () => undefined);
  return {
    stream,
    async flush(ms, head) {
      // sonic-boom's flush(cb) calls back at once when minLength is 0 (ours), even with a write
      // in flight and lines queued behind it: the last lines ('stopped') were lost at exit.
      // end() writes out everything queued, then emits 'close' (fd 1 itself stays open); ending
      // pino-pretty's stream first lets the lines it still holds through, then ends this one.
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
