// The flags of `npm run cli -- export`, checked all at once so a mistake is reported before any
// database or file is touched.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROUND_CODE_PATTERN } from '@admissions/form';
import { isCalendarDay } from '../../platform/lib/calendar-day';

export type ExportStatusFilter = 'submitted' | 'started' | 'all';

export interface ExportOptions {
  /** Absolute path of the export folder. */
  out: string;
  status: ExportStatusFilter;
  /** Only the applications of this admission round (its code); null: every round. */
  round: string | null;
  /** Submitted on or after this instant (the start of the --since day, UTC). */
  since: Date | null;
  /** Submitted before this instant (the end of the --until day, UTC). */
  until: Date | null;
  /** Absolute path of a file of application ids or e-mail addresses, one a line. */
  idsFile: string | null;
  force: boolean;
  zip: boolean;
  combined: boolean;
  /** Applications rendered (or, with --queue, handed to workers) at once. */
  concurrency: number;
  queue: boolean;
}

export class ExportUsageError extends Error {
  /** @param usage the command's usage text, printed after the message */
  constructor(
    message: string,
    readonly usage: string = EXPORT_USAGE,
  ) {
    super(message);
    this.name = 'ExportUsageError';
  }
}

export const EXPORT_USAGE = `Usage: npm run cli -- export --out DIR [options]

Writes one PDF per application (the staff PDF) named lastname_firstname_<id>.pdf, plus index.csv
and index.json. Reruns render only applications that changed since the last run in DIR.

Options:
  --out DIR                 export folder (created when missing; holds .export-state.json)
  --status S                submitted (default), started (not yet submitted) or all
  --round CODE              only the applications of this admission round (rounds list)
  --since YYYY-MM-DD        submitted on or after this day (UTC)
  --until YYYY-MM-DD        submitted on or before this day (UTC)
  --ids FILE                only these applications: one application id or e-mail a line
  --force                   render every selected application again
  --zip                     write DIR/export-<time>.zip (PDFs and index files) instead of loose files
  --combined                also write one PDF with a bookmark per applicant
  --concurrency N           applications at once (default: the number of cores; with --queue 32)
  --queue                   hand the work to the job workers (npm run cli -- worker)

Exit codes: 0 all exported, 2 some applications failed (listed at the end), 1 bad options or
database unreachable, 130 interrupted (a rerun resumes).`;

const DAY_MS = 24 * 60 * 60 * 1000;
/** An instant with its zone: 2026-11-01T12:00Z, 2026-11-01T12:00:00.000+01:00. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The bound a --since or --until value sets: a day (UTC), or with `times` an exact instant. */
function parseBound(flag: string, value: string, times: boolean): { at: Date; day: boolean } {
  if (isCalendarDay(value)) return { at: new Date(`${value}T00:00:00.000Z`), day: true };
  if (times && INSTANT.test(value) && isCalendarDay(value.slice(0, 10))) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime())) return { at, day: false };
  }
  throw new ExportUsageError(
    times
      ? `${flag} must be a day YYYY-MM-DD or a time such as 2026-11-01T12:00:00Z (got "${value}")`
      : `${flag} must be a date written YYYY-MM-DD (got "${value}")`,
  );
}

/** What --status, --round, --since and --until select, shared by `export` and `export-data`. */
export interface SelectionFlags {
  status: ExportStatusFilter;
  round: string | null;
  /** Submitted at or after this instant. */
  since: Date | null;
  /** Submitted before this instant. */
  until: Date | null;
}

/**
 * Checks the selection flags, adding each problem to `problems`. With `times`, --since and
 * --until also take an instant (--until then includes that instant); a day is always UTC, and
 * --until a day includes all of it.
 */
export function checkSelectionFlags(
  values: { status?: string; round?: string; since?: string; until?: string },
  problems: string[],
  times = false,
): SelectionFlags {
  const attempt = <T>(fn: () => T): T | null => {
    try {
      return fn();
    } catch (error) {
      problems.push((error as Error).message);
      return null;
    }
  };
  const status = values.status ?? 'submitted';
  if (status !== 'submitted' && status !== 'started' && status !== 'all') {
    problems.push(`--status must be submitted, started or all (got "${status}")`);
  }
  const round = values.round?.trim() ?? null;
  if (round !== null && !ROUND_CODE_PATTERN.test(round)) {
    problems.push(
      `--round must be a round's code such as EA, as npm run cli -- rounds list prints it (got "${values.round}")`,
    );
  }
  const since =
    values.since === undefined ? null : attempt(() => parseBound('--since', values.since!, times));
  const until =
    values.until === undefined ? null : attempt(() => parseBound('--until', values.until!, times));
  if (since && until && since.at > until.at) problems.push('--since is later than --until');
  if (status === 'started' && (values.since !== undefined || values.until !== undefined)) {
    problems.push('--since and --until select by submission date; started applications have none');
  }
  return {
    status: status as ExportStatusFilter,
    round,
    since: since?.at ?? null,
    until: until ? new Date(until.at.getTime() + (until.day ? DAY_MS : 1)) : null,
  };
}

/**
 * @param cwd where the person ran the command (relative paths are relative to it)
 * @param cores the default concurrency
 */
export function parseExportArgs(args: string[], cwd: string, cores: number): ExportOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: 'string' },
        status: { type: 'string' },
        round: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        ids: { type: 'string' },
        force: { type: 'boolean' },
        zip: { type: 'boolean' },
        combined: { type: 'boolean' },
        concurrency: { type: 'string' },
        queue: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // node:util's messages name the flag ("Unknown option '--zap'"), which is what we want.
    throw new ExportUsageError((error as Error).message);
  }
  const problems: string[] = [];
  if (!values.out || values.out.trim() === '') problems.push('--out DIR is required');
  const selection = checkSelectionFlags(values, problems);
  const queue = values.queue === true;
  let concurrency = queue ? 32 : Math.max(1, cores);
  if (values.concurrency !== undefined) {
    const n = Number(values.concurrency);
    if (!/^\d+$/.test(values.concurrency) || n < 1 || n > 256) {
      problems.push(
        `--concurrency must be a whole number from 1 to 256 (got "${values.concurrency}")`,
      );
    } else {
      concurrency = n;
    }
  }
  if (values.ids !== undefined && values.ids.trim() === '') problems.push('--ids needs a file');
  if (problems.length > 0) throw new ExportUsageError(problems.join('\n'));

  return {
    out: path.resolve(cwd, values.out!),
    ...selection,
    idsFile: values.ids === undefined ? null : path.resolve(cwd, values.ids),
    force: values.force === true,
    zip: values.zip === true,
    combined: values.combined === true,
    concurrency,
    queue,
  };
}
