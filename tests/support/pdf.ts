import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pdfOutline, readStructureRows } from '../../packages/answer-view/test/pdf-tools';

const run = promisify(execFile);

/**
 * The text of a PDF as poppler's `pdftotext` reads it (ARCHITECTURE.md: PDFs are tested through
 * their text). `raw` keeps the content stream's order, which is the order the renderer wrote.
 */
export async function extractPdfText(
  pdf: Uint8Array,
  options: { mode?: 'raw' | 'default' } = {},
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const args = [...(options.mode === 'raw' ? ['-raw'] : []), '-enc', 'UTF-8', file, '-'];
    const { stdout } = await run('pdftotext', args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

/** Collapses every run of whitespace (line wraps, page breaks) to one space. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The page count as poppler's `pdfinfo` reads it. */
export async function countPdfPages(pdf: Uint8Array): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfinfo', [file]);
    return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The answer rows of a tagged PDF as a screen reader meets them: poppler's dump of the structure
 * tree (`pdfinfo -struct-text`), read as the package's own PDF tests read it.
 */
export async function extractStructureRows(pdf: Uint8Array): Promise<{ th: string; td: string }[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfinfo', ['-struct-text', file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return readStructureRows(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every bookmark's title, depth first, as qpdf reads the outline. */
export function readOutlineTitles(pdf: Uint8Array): string[] {
  const walk = (entries: ReturnType<typeof pdfOutline>): string[] =>
    entries.flatMap((entry) => [entry.title, ...walk(entry.kids)]);
  return walk(pdfOutline(pdf));
}
