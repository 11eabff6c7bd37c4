// A SIGTERM or SIGINT that arrives while the server is still loading and starting. With no
// listener Node ends the process at once, wherever the start is: mid-write to the embedded
// database, with the CLI's socket left in DATA_DIR. The entry point holds such a signal from its
// first line; stopOnSignals (process-lifecycle.ts) takes over and acts on it.

export type StopSignal = 'SIGTERM' | 'SIGINT';

export interface HeldSignals {
  /** The first signal received while held, if any. */
  received(): StopSignal | undefined;
  /** Stops holding (the caller has listeners of its own by now). */
  release(): void;
}

export function holdSignals(): HeldSignals {
  let first: StopSignal | undefined;
  const onTerm = () => (first ??= 'SIGTERM');
  const onInt = () => (first ??= 'SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  return {
    received: () => first,
    release() {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
    },
  };
}
