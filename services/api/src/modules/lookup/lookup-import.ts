// `npm run cli -- lookup import`: an institution's licensed school or address list, as CSV,
// validated row by row and upserted by code. The embedded default's sample lists go the same way.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { LookupCategory } from '@admissions/api-contract';
import { USA } from '@admissions/form';
import type { Database } from '../../platform/db/connect';
import { SERVICE_ROOT } from '../../platform/service-root';
import { CsvSyntaxError, parseCsv } from '../../platform/lib/csv';
import { normalizeSearchText } from './normalize';
import { rebuildWordIndex } from './word-index';
import { isKnownCountry, isKnownState } from './place-names';

interface CategoryFormat {
  table: string;
  /** The upsert key: first column of the file. */
  key: string;
  columns: readonly string[];
  required: readonly string[];
  /** Which columns make up the searchable text. */
  searchFrom: readonly string[];
  /** Column name in the file → column in the table, where they differ. */
  dbColumn?: Readonly<Record<string, string>>;
}

/** The documented CSV columns of each category (README: "Lookups"). */
export const IMPORT_FORMATS: Record<LookupCategory, CategoryFormat> = {
  hs_ceeb: {
    table: 'lookup_high_schools',
    key: 'code',
    columns: ['code', 'name', 'street', 'city', 'state', 'zip', 'country'],
    required: ['code', 'name'],
    searchFrom: ['name'],
  },
  college_ceeb: {
    table: 'lookup_colleges',
    key: 'code',
    columns: ['code', 'name', 'street', 'city', 'state', 'zip', 'country'],
    required: ['code', 'name'],
    searchFrom: ['name'],
  },
  address: {
    table: 'lookup_addresses',
    key: 'id',
    columns: ['id', 'address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country'],
    required: ['id', 'address_line_1'],
    searchFrom: ['address_line_1', 'address_line_2', 'city', 'state', 'zip'],
  },
};

const MAX_LENGTH: Readonly<Record<string, number>> = {
  code: 30,
  id: 100,
  name: 150,
  street: 100,
  address_line_1: 100,
  address_line_2: 100,
  city: 60,
  state: 10,
  zip: 10,
  country: 3,
};
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class ImportFormatError extends Error {}

export interface ImportRow {
  line: number;
  values: Record<string, string>;
}

export interface ImportReport {
  category: LookupCategory;
  accepted: number;
  inserted: number;
  updated: number;
  rejected: { line: number; reason: string }[];
  /** Columns in the file that are not part of the format (ignored). */
  ignoredColumns: string[];
  /** Sample rows removed because real data arrived. */
  removedSamples: number;
}

/** Validates a whole file; throws ImportFormatError only when the header itself is unusable. */
export function validateLookupCsv(
  category: LookupCategory,
  csv: string,
): { rows: ImportRow[]; rejected: ImportReport['rejected']; ignoredColumns: string[] } {
  const format = IMPORT_FORMATS[category];
  let parsed;
  try {
    parsed = parseCsv(csv);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new ImportFormatError(error.message);
    throw error;
  }
  const [header, ...records] = parsed;
  if (!header) throw new ImportFormatError('The file is empty: expected a header line.');
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const missing = format.required.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    throw new ImportFormatError(
      `The header lacks the column(s) ${missing.join(', ')}; expected ${format.columns.join(',')}.`,
    );
  }
  const ignoredColumns = names.filter((n) => !format.columns.includes(n));
  const rows: ImportRow[] = [];
  const rejected: ImportReport['rejected'] = [];
  const firstLine = new Map<string, number>();

  for (const record of records) {
    const reject = (reason: string) => rejected.push({ line: record.line, reason });
    if (record.fields.length > names.length) {
      reject(`has ${record.fields.length} fields but the header has ${names.length}`);
      continue;
    }
    const values: Record<string, string> = {};
    for (const column of format.columns) {
      const at = names.indexOf(column);
      values[column] = at === -1 ? '' : (record.fields[at] ?? '').trim().replace(/\s+/g, ' ');
    }
    values.country = (values.country ?? '').toUpperCase() || USA;
    values.state = (values.state ?? '').toUpperCase();

    const problem =
      format.required.map((c) => (values[c] ? null : `${c} is empty`)).find(Boolean) ??
      format.columns
        .map((c) => {
          const max = MAX_LENGTH[c];
          const value = values[c] ?? '';
          return max !== undefined && value.length > max
            ? `${c} is longer than ${max} characters`
            : null;
        })
        .find(Boolean) ??
      (KEY_PATTERN.test(values[format.key] ?? '')
        ? null
        : `${format.key} may contain only letters, digits, ".", "-" and "_"`) ??
      (isKnownCountry(values.country)
        ? null
        : `country "${values.country}" is not an ISO 3166-1 alpha-3 code`) ??
      (values.state === '' || isKnownState(values.country, values.state)
        ? null
        : `state "${values.state}" is not a state or province code of ${values.country}`) ??
      (normalizeSearchText(format.searchFrom.map((c) => values[c] ?? '').join(' ')) === ''
        ? 'has no letters or digits to search by'
        : null);
    if (problem) {
      reject(problem);
      continue;
    }
    const key = values[format.key] ?? '';
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      reject(`duplicate ${format.key} "${key}" (first on line ${earlier})`);
      continue;
    }
    firstLine.set(key, record.line);
    rows.push({ line: record.line, values });
  }
  return { rows, rejected, ignoredColumns };
}

const BATCH = 500;

/** Inserts or updates rows by key; `sample` rows are the embedded default's demo data. */
export async function upsertLookupRows(
  database: Database,
  category: LookupCategory,
  rows: readonly ImportRow[],
  source: 'import' | 'sample',
): Promise<{ inserted: number; updated: number; removedSamples: number }> {
  const format = IMPORT_FORMATS[category];
  let removedSamples = 0;
  if (source === 'import' && rows.length > 0) {
    const removed = await database.executeSql(
      `DELETE FROM ${format.table} WHERE source = 'sample' RETURNING 1`,
      [],
    );
    removedSamples = removed.rows.length;
  }
  const columns = [...format.columns, 'search_text', 'source', 'updated_at'];
  const updates = columns
    .filter((c) => c !== format.key)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  let inserted = 0;
  let updated = 0;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const search = normalizeSearchText(format.searchFrom.map((c) => row.values[c]).join(' '));
      const fields = [...format.columns.map((c) => row.values[c] ?? ''), search, source];
      const placeholders = fields.map((field) => {
        values.push(field);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')}, now())`;
    });
    // xmax = 0 only on a freshly inserted row: tells new codes from updated ones.
    const result = await database.executeSql(
      `INSERT INTO ${format.table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT (${format.key}) DO UPDATE SET ${updates}
       RETURNING (xmax = 0) AS inserted`,
      values,
    );
    for (const row of result.rows) {
      if (row.inserted === true) inserted++;
      else updated++;
    }
  }
  await rebuildWordIndex(database, { table: format.table, key: format.key });
  return { inserted, updated, removedSamples };
}

/** Validates and upserts a CSV text; rows with problems are reported, the rest imported. */
export async function importLookupCsv(
  database: Database,
  category: LookupCategory,
  csv: string,
  options: { dryRun?: boolean } = {},
): Promise<ImportReport> {
  const { rows, rejected, ignoredColumns } = validateLookupCsv(category, csv);
  const counts = options.dryRun
    ? { inserted: 0, updated: 0, removedSamples: 0 }
    : await upsertLookupRows(database, category, rows, 'import');
  return { category, accepted: rows.length, ...counts, rejected, ignoredColumns };
}

export function formatImportReport(report: ImportReport, dryRun = false): string {
  const lines = [
    `${report.category}: ${report.accepted} row(s) accepted` +
      (dryRun
        ? ' (dry run: nothing written)'
        : ` (${report.inserted} new, ${report.updated} updated)`) +
      `, ${report.rejected.length} rejected.`,
  ];
  if (report.removedSamples > 0) {
    lines.push(`Removed ${report.removedSamples} sample row(s) shipped with the embedded default.`);
  }
  if (report.ignoredColumns.length > 0) {
    lines.push(`Ignored column(s): ${report.ignoredColumns.join(', ')}.`);
  }
  for (const r of report.rejected) lines.push(`  line ${r.line}: ${r.reason}`);
  return `${lines.join('\n')}\n`;
}

const SAMPLE_DIR = path.join(SERVICE_ROOT, 'data-samples');
export const SAMPLE_FILES: Partial<Record<LookupCategory, string>> = {
  hs_ceeb: path.join(SAMPLE_DIR, 'sample-high-schools.csv'),
  college_ceeb: path.join(SAMPLE_DIR, 'sample-colleges.csv'),
};

const LOOKUP_SEED_LOCK_ID = 7_201_331;

/**
 * The embedded default's quick start: a category whose table is empty gets the shipped SAMPLE
 * list (fictional schools). The first real import of that category removes the samples.
 */
export async function seedLookupSamples(database: Database, logger: Logger): Promise<void> {
  // Replicas starting together would both find a table empty and rebuild its word index at the
  // same time (a duplicate key in lookup_vocabulary): one seeds, the others then find it filled.
  await database.withAdvisoryLock(LOOKUP_SEED_LOCK_ID, async () => {
    for (const [category, file] of Object.entries(SAMPLE_FILES) as [LookupCategory, string][]) {
      const { table } = IMPORT_FORMATS[category];
      const { rows: any } = await database.executeSql(`SELECT 1 FROM ${table} LIMIT 1`, []);
      if (any.length > 0) continue;
      const { rows } = validateLookupCsv(category, await readFile(file, 'utf8'));
      await upsertLookupRows(database, category, rows, 'sample');
      logger.info({ category, rows: rows.length }, 'lookup sample list loaded');
    }
  });
}
