// index.csv and index.json: one row per selected application, in selection order.
export interface IndexRow {
  id: string;
  name: string;
  email: string;
  submitted_at: string | null;
  /** 'submitted' or 'started'. */
  status: string;
  /** File name of the PDF ('' when it failed). */
  file: string;
  pages: number | null;
  bytes: number | null;
  sha256: string;
  /** Titles of the documents appended after the answers. */
  documents: string[];
  /** 'rendered' this run, 'unchanged' since an earlier run, or 'failed'. */
  export: 'rendered' | 'unchanged' | 'failed';
  error: string;
}

const CSV_COLUMNS = [
  'id',
  'name',
  'email',
  'submitted_at',
  'status',
  'file',
  'pages',
  'bytes',
  'sha256',
  'documents_included',
  'documents',
  'export',
  'error',
] as const;

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return) as a formula
 * (OWASP "CSV injection"); a leading apostrophe makes it text.
 */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function formatIndexCsv(rows: readonly IndexRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: row.id,
      name: guardFormula(row.name),
      email: guardFormula(row.email),
      submitted_at: row.submitted_at ?? '',
      status: row.status,
      file: row.file,
      pages: row.pages === null ? '' : String(row.pages),
      bytes: row.bytes === null ? '' : String(row.bytes),
      sha256: row.sha256,
      documents_included: String(row.documents.length),
      documents: guardFormula(row.documents.join('; ')),
      export: row.export,
      error: guardFormula(row.error),
    };
    lines.push(CSV_COLUMNS.map((c) => csvField(cells[c])).join(','));
  }
  // RFC 4180 records end with CRLF.
  return `${lines.join('\r\n')}\r\n`;
}

export interface IndexMeta {
  generated_at: string;
  selection: {
    status: string;
    round: string | null;
    since: string | null;
    until: string | null;
    ids_file: string | null;
  };
}

export function formatIndexJson(rows: readonly IndexRow[], meta: IndexMeta): string {
  const failed = rows.filter((r) => r.export === 'failed').length;
  return `${JSON.stringify(
    { ...meta, total: rows.length, exported: rows.length - failed, failed, applications: rows },
    null,
    2,
  )}\n`;
}
