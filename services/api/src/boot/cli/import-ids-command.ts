// `npm run cli -- import-ids --file ids.csv`: the student information system's return feed as a
// file. Each row names an application and its ID in that system; each is stored as the API's
// `PUT /service/applications/{id}/external-id` stores one (setExternalId), so the two agree.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EXTERNAL_ID_PATTERN } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/connect';
import { CsvSyntaxError, parseCsv } from '../../platform/lib/csv';
import { setExternalId } from '../../modules/application';
import { CliUsageError } from './staff-commands';

export const IMPORT_IDS_USAGE = `  import-ids --file ids.csv         store the student system's IDs: a CSV with the header
                                  application_id,external_id; prints each refused row
                                  (exit code 3 when any row was refused)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXTERNAL_ID = new RegExp(EXTERNAL_ID_PATTERN);

export interface ImportIdsReport {
  stored: number;
  unchanged: number;
  refused: { line: number; reason: string }[];
}

function readCsv(csv: string) {
  try {
    return parseCsv(csv);
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new CliUsageError(`${error.message} Nothing was stored.`);
    throw error;
  }
}

/** Stores every row it can; a bad row is reported with its line and reason, never skipped silently. */
export async function importExternalIds(database: Database, csv: string): Promise<ImportIdsReport> {
  const [header, ...rows] = readCsv(csv);
  const columns = header?.fields.map((f) => f.trim().toLowerCase()) ?? [];
  const idColumn = columns.indexOf('application_id');
  const externalColumn = columns.indexOf('external_id');
  if (idColumn === -1 || externalColumn === -1) {
    throw new CliUsageError('The file must start with the header application_id,external_id.');
  }
  const report: ImportIdsReport = { stored: 0, unchanged: 0, refused: [] };
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    const applicationId = (fields[idColumn] ?? '').trim().toLowerCase();
    const externalId = (fields[externalColumn] ?? '').trim();
    const refuse = (reason: string) => report.refused.push({ line, reason });
    // A hostile file's values are printed escaped and cut short: no terminal control codes, no
    // megabyte lines.
    const shown = (value: string) =>
      JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    if (!UUID.test(applicationId)) {
      refuse(`${shown(applicationId)} is not an application id`);
      continue;
    }
    if (!EXTERNAL_ID.test(externalId)) {
      refuse(
        `${shown(externalId)} is not a student system ID (1-64 letters, digits, ".", "_" or "-")`,
      );
      continue;
    }
    const earlier = seen.get(externalId);
    if (earlier !== undefined) {
      refuse(`"${externalId}" is also on line ${earlier}`);
      continue;
    }
    seen.set(externalId, line);
    const outcome = await setExternalId(database.db, applicationId, externalId);
    if (outcome === 'set') report.stored++;
    else if (outcome === 'unchanged') report.unchanged++;
    else if (outcome === 'not-found') refuse(`no application has the id ${applicationId}`);
    else refuse(`"${externalId}" already belongs to another application`);
  }
  return report;
}

export async function runImportIds(
  config: Config,
  args: string[],
  openDatabase: () => Promise<Database>,
): Promise<number> {
  const { values } = parseArgs({ args, options: { file: { type: 'string' } } });
  if (!values.file) throw new CliUsageError('--file is required (a CSV file)');
  // npm runs the CLI inside services/api; a relative path means where the command was typed.
  const csv = await readFile(path.resolve(config.invokedFrom, values.file), 'utf8');
  const database = await openDatabase();
  try {
    const report = await importExternalIds(database, csv);
    for (const { line, reason } of report.refused) console.log(`line ${line}: ${reason}`);
    console.log(
      `${report.stored} stored, ${report.unchanged} unchanged, ${report.refused.length} refused.`,
    );
    return report.refused.length > 0 ? 3 : 0;
  } finally {
    await database.close();
  }
}
