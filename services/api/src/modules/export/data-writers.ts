// The data file's three syntaxes, as text chunks a writer appends in order, so a record is turned
// into text once and the file never exists whole in memory:
//  - csv: RFC 4180 (csvField of the index writer), a header line of the column names, CRLF. Unlike
//    index.csv, values are not defused for spreadsheets: a receiving system must read the exact
//    answer ("+46 8 123 456 78", "-"), and this file is for systems, not for a spreadsheet;
//  - json: one array of objects, each with every column in order;
//  - ndjson: one such object a line.
// Every value is text, '' where empty, in all three.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { csvField } from './index-writers';
import type { DataFormat } from './data-options';

export interface RecordFormat {
  /** Text before the first record (the CSV header, the JSON array's bracket). */
  start: string;
  /** One record's text; `first` for the first record of the file. */
  record(values: readonly string[], first: boolean): string;
  /** Text after the last record; `empty` when the file holds none. */
  end(empty: boolean): string;
}

export function createRecordFormat(format: DataFormat, names: readonly string[]): RecordFormat {
  if (format === 'csv') {
    return {
      start: `${names.map(csvField).join(',')}\r\n`,
      record: (values) => `${values.map((v) => (v === '' ? '' : csvField(v))).join(',')}\r\n`,
      end: () => '',
    };
  }
  const keys = names.map((name) => `${JSON.stringify(name)}:`);
  // Most columns of a record are empty (questions not shown, blocks not added): their text is
  // made once. The pieces are joined, not appended one by one: `+=` leaves a tree of a thousand
  // small strings per record that the file write then had to flatten, and that cost more than
  // building the record (the export's profile).
  const empty = keys.map((key) => `${key}""`);
  const parts = new Array<string>(keys.length);
  const object = (values: readonly string[]) => {
    for (let i = 0; i < keys.length; i++) {
      const value = values[i] ?? '';
      parts[i] = value === '' ? empty[i]! : keys[i]! + JSON.stringify(value);
    }
    return `{${parts.join(',')}}`;
  };
  if (format === 'ndjson') {
    return { start: '', record: (values) => `${object(values)}\n`, end: () => '' };
  }
  return {
    start: '[',
    record: (values, first) => `${first ? '\n' : ',\n'}${object(values)}`,
    end: (empty) => (empty ? ']\n' : '\n]\n'),
  };
}

/** The writer's buffer: records are encoded into it and it goes to the file when full. */
const BUFFER_BYTES = 1024 * 1024;

/**
 * Appends to a temporary file beside `file` (named so the folder's clean-up of killed runs finds
 * it) and puts it in place with a rename only once complete: a reader of `file` sees the last
 * complete export or this one, never half of one. Text is encoded as UTF-8 into one reused buffer
 * a piece at a time: joining records into a big string and writing that cost four times building
 * them (large strings allocated, flattened and encoded again for every write), and the process
 * kept copies of them after use.
 */
export async function openAtomicFile(file: string) {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle: FileHandle = await open(temp, 'w', 0o640);
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  let used = 0;
  let closed = false;
  const flush = async () => {
    if (used === 0) return;
    const bytes = used;
    used = 0;
    await handle.write(buffer, 0, bytes);
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    async write(text: string): Promise<void> {
      if (text === '') return;
      // A UTF-8 character takes at most 3 bytes per UTF-16 unit: room enough, checked cheaply.
      if (used + text.length * 3 > buffer.length) {
        await flush();
        if (text.length * 3 > buffer.length) {
          await handle.write(text);
          return;
        }
      }
      used += buffer.write(text, used);
    },
    async commit(): Promise<void> {
      await flush();
      await handle.sync();
      await close();
      await rename(temp, file);
    },
    async discard(): Promise<void> {
      used = 0;
      await close().catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
}
