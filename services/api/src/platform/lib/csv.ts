// RFC 4180 CSV reading for the files people hand the CLI (lookup lists, code mappings).
/** A file that is not CSV this reader can take; the message names the line. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/** One parsed CSV record and the (1-based) line it starts on, for the import report. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * RFC 4180 CSV: commas, double-quoted fields with "" for a quote and line breaks inside quotes,
 * CRLF or LF, an optional UTF-8 byte order mark. Blank lines are skipped. A quoted field that
 * is never closed is a CsvSyntaxError: read leniently, it would swallow every later line into one
 * field and the rows would vanish without a word.
 */
export function parseCsv(input: string): CsvRecord[] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += c;
  }
  if (quoted) {
    throw new CsvSyntaxError(
      `Line ${recordLine}: a quoted field opened on this line is never closed (a stray double quote?), so the file cannot be read past it.`,
      recordLine,
    );
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
