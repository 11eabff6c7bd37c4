// qpdf (Debian package) as a child process under hard limits: it repairs damaged cross-reference
// tables, removes owner-password encryption and flattens form fields far better than pdf-lib, but
// it is native code reading hostile input, so it gets an address-space ceiling, a CPU-time limit
// and a wall-clock time-out, and never inflates a stream we did not ask it to.
import { execFile } from 'node:child_process';

/** Address space of one qpdf run; a bounded 1 MB PDF needs a few tens of MB. */
const QPDF_MEMORY_BYTES = 512 * 1024 * 1024;
const QPDF_CPU_SECONDS = 10;
const QPDF_TIMEOUT_MS = 15_000;
/** Room for qpdf's messages; more than this is itself a sign of a hostile file. */
const QPDF_MAX_OUTPUT_BYTES = 256 * 1024;

export type QpdfOutcome =
  | { kind: 'exit'; code: number; stderr: string }
  /** Killed by a limit (time, CPU, memory, output): the document is too much for us. */
  | { kind: 'limit'; reason: string };

/**
 * Runs `qpdf args` in `cwd`; rejects only when qpdf could not be started at all. `maxFileBytes`
 * caps any file qpdf writes (the kernel stops it with SIGXFSZ, reported as a limit).
 */
export function runQpdf(
  args: readonly string[],
  cwd: string,
  maxFileBytes?: number,
): Promise<QpdfOutcome> {
  const fileLimit = maxFileBytes === undefined ? [] : [`--fsize=${maxFileBytes}`];
  return new Promise((resolve, reject) => {
    execFile(
      'prlimit',
      [
        `--as=${QPDF_MEMORY_BYTES}`,
        `--cpu=${QPDF_CPU_SECONDS}`,
        ...fileLimit,
        '--',
        'qpdf',
        ...args,
      ],
      {
        cwd,
        timeout: QPDF_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: QPDF_MAX_OUTPUT_BYTES,
        encoding: 'utf8',
        // Only what qpdf needs: no inherited secrets from the API's environment.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      },
      (error, _stdout, stderr) => {
        // qpdf reports an allocation failure as an error (exit 2) or, when it happened while
        // reading one object, as a warning (exit 3) after writing the object as null: either way
        // the output is not the document, and the cause is its size.
        if (/bad_alloc|out of memory/i.test(stderr)) {
          return resolve({ kind: 'limit', reason: 'memory' });
        }
        if (!error) return resolve({ kind: 'exit', code: 0, stderr });
        const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
        if (failure.code === 'ENOENT') return reject(error);
        if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          return resolve({ kind: 'limit', reason: 'too much output' });
        }
        if (failure.killed || failure.signal) {
          return resolve({ kind: 'limit', reason: failure.signal ?? 'killed' });
        }
        if (typeof failure.code === 'number') {
          return resolve({ kind: 'exit', code: failure.code, stderr });
        }
        reject(error);
      },
    );
  });
}
