// Code mappings (docs/data-export.md#code-mapping): the codes the product stores (USA, IL, BIO,
// 2027FA…) translated into what a receiving system expects, per system, from a JSON or CSV file.
// A column the system maps translates every non-empty value, and a value the system does not list
// fails the record; a column the system does not map is written as stored. Empty targets map
// nothing, so `dictionary --mapping-template` output can be filled in part and used as it stands.
import path from 'node:path';
import { CsvSyntaxError, parseCsv } from '../../platform/lib/csv';
import { SYSTEM_NAME_PATTERN } from './data-options';

export interface CodeMapping {
  system: string;
  /** Column name → product code → target code. */
  columns: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** A mapping file that cannot be used (exit code 1, before anything is exported). */
export class MappingFileError extends Error {}

type Systems = Map<string, Map<string, Map<string, string>>>;

const CSV_COLUMNS = ['system', 'key', 'product_code', 'target_code'] as const;

function addEntry(
  systems: Systems,
  where: string,
  entry: { system: string; key: string; product: string; target: string },
  problems: string[],
): void {
  const { system, key, product, target } = entry;
  if (!SYSTEM_NAME_PATTERN.test(system)) {
    problems.push(`${where}: the system "${system}" must be letters, digits, - or _`);
    return;
  }
  if (key === '' || product === '') {
    problems.push(`${where}: a key and a product code are needed`);
    return;
  }
  const keys = systems.get(system) ?? new Map<string, Map<string, string>>();
  systems.set(system, keys);
  if (target === '') return;
  const codes = keys.get(key) ?? new Map<string, string>();
  keys.set(key, codes);
  const known = codes.get(product);
  if (known !== undefined && known !== target) {
    problems.push(
      `${where}: ${system} maps ${key} = ${product} to both "${known}" and "${target}"`,
    );
    return;
  }
  codes.set(product, target);
}

function readCsvMapping(text: string, problems: string[]): Systems {
  const systems: Systems = new Map();
  let parsed;
  try {
    parsed = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    problems.push(error.message);
    return systems;
  }
  const [header, ...records] = parsed;
  const names = header?.fields.map((f) => f.trim().toLowerCase()) ?? [];
  const at = CSV_COLUMNS.map((c) => names.indexOf(c));
  if (at.some((i) => i === -1)) {
    problems.push(`the first line must name the columns ${CSV_COLUMNS.join(',')}`);
    return systems;
  }
  const [system, key, product, target] = at as [number, number, number, number];
  for (const record of records) {
    const cell = (i: number) => (record.fields[i] ?? '').trim();
    addEntry(
      systems,
      `line ${record.line}`,
      { system: cell(system), key: cell(key), product: cell(product), target: cell(target) },
      problems,
    );
  }
  return systems;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readJsonMapping(text: string, problems: string[]): Systems {
  const systems: Systems = new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.push(`not JSON: ${(error as Error).message}`);
    return systems;
  }
  if (!isObject(parsed) || !isObject(parsed.systems)) {
    problems.push('expected {"systems": {"<system>": {"<key>": {"<product code>": "<target>"}}}}');
    return systems;
  }
  for (const [system, keys] of Object.entries(parsed.systems)) {
    if (!isObject(keys)) {
      problems.push(`systems.${system} must be an object of keys`);
      continue;
    }
    systems.set(system, new Map());
    for (const [key, codes] of Object.entries(keys)) {
      if (!isObject(codes)) {
        problems.push(`systems.${system}.${key} must be an object of codes`);
        continue;
      }
      for (const [product, target] of Object.entries(codes)) {
        if (typeof target !== 'string') {
          problems.push(`systems.${system}.${key}.${product} must be a string`);
          continue;
        }
        addEntry(
          systems,
          `systems.${system}.${key}`,
          { system, key, product, target: target.trim() },
          problems,
        );
      }
    }
  }
  return systems;
}

/**
 * Reads a mapping file's text and picks its system: `system`, or the file's only one.
 * @param columns the export's columns: a mapped key must be one of them
 */
export function parseCodeMapping(
  text: string,
  fileName: string,
  system: string | null,
  columns: ReadonlySet<string>,
): CodeMapping {
  const problems: string[] = [];
  const body = text.replace(/^\uFEFF/, '');
  const isJson =
    path.extname(fileName).toLowerCase() === '.json' ||
    (path.extname(fileName).toLowerCase() !== '.csv' && body.trimStart().startsWith('{'));
  const systems = isJson ? readJsonMapping(body, problems) : readCsvMapping(body, problems);
  const fail = (message: string) => new MappingFileError(`${fileName}: ${message}`);
  if (problems.length > 0) throw fail(problems.slice(0, 20).join('\n'));
  const names = [...systems.keys()];
  if (names.length === 0) throw fail('no system is mapped');
  const chosen = system ?? (names.length === 1 ? names[0]! : null);
  if (chosen === null) {
    throw fail(`it maps several systems (${names.join(', ')}): choose one with --system`);
  }
  const keys = systems.get(chosen);
  if (!keys) throw fail(`no system "${chosen}" (it maps ${names.join(', ')})`);
  const unknown = [...keys.keys()].filter((k) => !columns.has(k));
  if (unknown.length > 0) {
    throw fail(
      `not columns of the export: ${unknown.join(', ')} (npm run cli -- dictionary --columns)`,
    );
  }
  return { system: chosen, columns: keys };
}

/** "No mapping for country = NZL in banner": the message a failed record carries. */
export function describeUnmapped(key: string, value: string, system: string): string {
  return `No mapping for ${key} = ${value} in ${system}`;
}
