// The flags of `npm run cli -- export-data`, checked all at once (as `export`'s are) so a mistake
// is reported before any database or file is touched. The selection flags are export's own.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkExportReason } from '@admissions/api-contract';
import { checkSelectionFlags, ExportUsageError, type SelectionFlags } from './options';

export const DATA_FORMATS = ['csv', 'json', 'ndjson'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

/** A receiving system's name in a mapping file; also part of the incremental state's file name. */
export const SYSTEM_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const REASON_MAX_LENGTH = 500;

/** Exit code of a run in which some records failed (a code with no mapping). */
export const DATA_EXPORT_RECORDS_FAILED = 3;

export interface DataExportOptions extends SelectionFlags {
  /** Absolute path of the data file. */
  out: string;
  format: DataFormat;
  /** Only applications whose version changed since the last data export into this folder. */
  incremental: boolean;
  /** Absolute path of the code mapping file. */
  mapFile: string | null;
  system: string | null;
  /** SSN and alien registration number decrypted into their columns (needs a reason). */
  includeSensitive: boolean;
  reason: string | null;
}

export const DATA_EXPORT_USAGE = `Usage: npm run cli -- export-data --out FILE [options]

Writes one record per application into FILE: the application's fields, one column per answer key
of the data dictionary and the checklist (npm run cli -- dictionary --columns lists them).

Options:
  --out FILE                the data file (written whole at the end; its folder holds the state)
  --format F                csv, json (one array) or ndjson (a record a line); default: the
                            file's extension, else csv
  --status S                submitted (default), started (not yet submitted) or all
  --round CODE              only the applications of this admission round (rounds list)
  --since TIME              submitted at or after this day (YYYY-MM-DD, UTC) or time
                            (2026-11-01T12:00:00Z)
  --until TIME              submitted on or before this day or time
  --incremental             only applications changed since the last data export into FILE's
                            folder (for this --system)
  --map FILE                translate codes with this mapping file (JSON or CSV)
  --system NAME             the receiving system in the mapping file (needed when it has several)
  --include-sensitive       SSN and alien registration number decrypted into their columns;
                            each application is recorded in the staff audit
  --reason TEXT             why (required with --include-sensitive; kept in the audit)

Exit codes: 0 all written, 3 some records failed (a code with no mapping: listed on stderr and in
FILE.errors.csv, every other record written), 1 bad options or database unreachable,
130 interrupted (nothing written).`;

function inferFormat(file: string): DataFormat {
  const ext = path.extname(file).slice(1).toLowerCase();
  return (DATA_FORMATS as readonly string[]).includes(ext) ? (ext as DataFormat) : 'csv';
}

/** @param cwd where the person ran the command (relative paths are relative to it) */
export function parseDataExportArgs(args: string[], cwd: string): DataExportOptions {
  const usageError = (message: string) => new ExportUsageError(message, DATA_EXPORT_USAGE);
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: 'string' },
        format: { type: 'string' },
        status: { type: 'string' },
        round: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        incremental: { type: 'boolean' },
        map: { type: 'string' },
        system: { type: 'string' },
        'include-sensitive': { type: 'boolean' },
        reason: { type: 'string' },
      },
    }));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const problems: string[] = [];
  const out = values.out?.trim() ?? '';
  if (out === '') problems.push('--out FILE is required');
  const selection = checkSelectionFlags(values, problems, true);
  const format = values.format ?? inferFormat(out);
  if (!(DATA_FORMATS as readonly string[]).includes(format)) {
    problems.push(`--format must be csv, json or ndjson (got "${format}")`);
  }
  if (values.map !== undefined && values.map.trim() === '') problems.push('--map needs a file');
  const system = values.system?.trim() ?? null;
  if (system !== null && values.map === undefined) problems.push('--system needs --map FILE');
  if (system !== null && !SYSTEM_NAME_PATTERN.test(system)) {
    problems.push(`--system must be letters, digits, - or _ (got "${values.system}")`);
  }
  const includeSensitive = values['include-sensitive'] === true;
  let reason: string | null = null;
  if (includeSensitive && values.reason === undefined) {
    problems.push('--include-sensitive needs --reason TEXT: why the SSNs are exported');
  } else if (includeSensitive) {
    const checked = checkExportReason(values.reason);
    if (checked.ok) reason = checked.reason;
    else problems.push(`--reason: ${checked.message}`);
  }
  if (!includeSensitive && values.reason !== undefined) {
    problems.push('--reason goes with --include-sensitive');
  }
  if (reason && reason.length > REASON_MAX_LENGTH) {
    problems.push(`--reason is at most ${REASON_MAX_LENGTH} characters`);
  }
  if (problems.length > 0) throw usageError(problems.join('\n'));

  return {
    out: path.resolve(cwd, out),
    format: format as DataFormat,
    ...selection,
    incremental: values.incremental === true,
    mapFile: values.map === undefined ? null : path.resolve(cwd, values.map),
    system,
    includeSensitive,
    reason: includeSensitive ? reason : null,
  };
}
