import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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
 * tree (`pdfinfo -struct-text`), each TR after the cover as its TH text and TD text, in tree order.
 */
export async function extractStructureRows(
  pdf: Uint8Array,
): Promise<{ header: string; data: string }[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfinfo', ['-struct-text', file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const rows: { header: string; data: string }[] = [];
    let cell: 'header' | 'data' | undefined;
    let pastCover = false;
    for (const line of stdout.split('\n')) {
      const trimmed = line.trim();
      const quoted = /^"(.*)"$/s.exec(trimmed);
      if (quoted) {
        if (cell && pastCover) rows.at(-1)![cell] += quoted[1];
        continue;
      }
      const type = /^([A-Za-z0-9]+)/.exec(trimmed)?.[1];
      // The cover is a table of facts before the first section.
      if (type === 'Sect') pastCover = true;
      if (type === 'TR' && pastCover) rows.push({ header: '', data: '' });
      // Attribute lines ("/Scope /Row") belong to the element above them.
      if (type) cell = type === 'TH' ? 'header' : type === 'TD' ? 'data' : undefined;
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
