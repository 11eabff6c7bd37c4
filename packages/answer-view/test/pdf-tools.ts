// Reading a PDF back the way a person or a viewer would: its text (poppler's pdftotext), its fonts
// (pdffonts) and its outline (qpdf --json). scripts/ensure-system-packages.sh installs both tools.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Runs `read` on the bytes written to a temporary file (for the command-line tools). */
export function withFile<T>(bytes: Uint8Array, read: (file: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'answer-pdf-'));
  try {
    const file = path.join(dir, 'application.pdf');
    writeFileSync(file, bytes);
    return read(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of the whole PDF, or of pages first..last (1-based), in reading order. */
export function pdfText(bytes: Uint8Array, pages?: { first: number; last: number }): string {
  return withFile(bytes, (file) => {
    const range = pages ? ['-f', String(pages.first), '-l', String(pages.last)] : [];
    return execFileSync('pdftotext', ['-enc', 'UTF-8', ...range, file, '-'], { encoding: 'utf8' });
  });
}

/** The reading text without the stamped "Page X of Y" lines (which interrupt text across pages). */
export function withoutPageNumbers(text: string): string {
  return text.replace(/^Page \d+ of \d+$/gm, '');
}

/** The text of each page separately (pdftotext separates pages with a form feed). */
export function pdfPageTexts(bytes: Uint8Array): string[] {
  const pages = pdfText(bytes).split('\f');
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages;
}

export interface PdfFontInfo {
  name: string;
  embedded: boolean;
}

export function pdfFonts(bytes: Uint8Array): PdfFontInfo[] {
  return withFile(bytes, (file) =>
    execFileSync('pdffonts', [file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const columns = line.trim().split(/\s+/);
        // name type… encoding emb sub uni object-id gen
        return { name: columns[0]!, embedded: columns.at(-5) === 'yes' };
      }),
  );
}

export interface OutlineEntry {
  title: string;
  /** 1-based page the entry opens. */
  page: number;
  kids: OutlineEntry[];
}

interface QpdfOutline {
  title: string;
  destpageposfrom1: number;
  kids: QpdfOutline[];
}

export function pdfOutline(bytes: Uint8Array): OutlineEntry[] {
  const json = withFile(bytes, (file) =>
    execFileSync('qpdf', ['--json', '--json-key=outlines', file], { encoding: 'utf8' }),
  );
  const convert = (items: QpdfOutline[]): OutlineEntry[] =>
    items.map((item) => ({
      title: item.title,
      page: item.destpageposfrom1,
      kids: convert(item.kids),
    }));
  return convert((JSON.parse(json) as { outlines: QpdfOutline[] }).outlines);
}

/** A small converted document: `pages` Letter pages, each saying "<title> page n". */
export async function buildDocumentPdf(title: string, pages = 2): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    pdf.addPage([612, 792]).drawText(`${title} page ${i}`, { x: 72, y: 700, size: 14, font });
  }
  return pdf.save();
}

/** Text with every kind of whitespace removed: lines wrap anywhere, CJK lines wrap mid-word. */
export function squeeze(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * Asserts that the needles occur in the haystack in this order (whitespace ignored, as wrapped
 * lines put breaks anywhere); returns the first needle not found after the previous one.
 */
export function findOutOfOrder(haystack: string, needles: readonly string[]): string | undefined {
  const text = squeeze(haystack);
  let from = 0;
  for (const needle of needles) {
    const squeezed = squeeze(needle);
    if (squeezed === '') continue;
    const at = text.indexOf(squeezed, from);
    if (at < 0) return needle;
    from = at + squeezed.length;
  }
  return undefined;
}

/**
 * The answer rows of a tagged application PDF as poppler dumps its structure tree
 * (`pdfinfo -struct-text`): each TR after the cover (whose facts are a table of their own, before
 * the first Sect) as its TH text and TD text, in tree order.
 */
export function readStructureRows(tree: string): { th: string; td: string }[] {
  const rows: { th: string; td: string }[] = [];
  let cell: 'th' | 'td' | undefined;
  let pastCover = false;
  for (const line of tree.split('\n')) {
    const trimmed = line.trim();
    const quoted = /^"(.*)"$/s.exec(trimmed);
    if (quoted) {
      if (cell && pastCover) rows.at(-1)![cell] += quoted[1];
      continue;
    }
    const type = /^([A-Za-z0-9]+)/.exec(trimmed)?.[1];
    if (type === 'Sect') pastCover = true;
    if (type === 'TR' && pastCover) rows.push({ th: '', td: '' });
    // Attribute lines ("/Scope /Row") belong to the element above them.
    if (type) cell = type === 'TH' ? 'th' : type === 'TD' ? 'td' : undefined;
  }
  return rows;
}
