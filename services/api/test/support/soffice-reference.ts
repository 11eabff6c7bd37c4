// What a fresh `soffice --convert-to pdf` makes of documents, outside the converter (no pool,
// no checks): the reference the Word tests compare the converter's PDFs with. One soffice run
// converts a batch (its start-up costs seconds); a document it cannot open has no PDF.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function convertWithSoffice(
  documents: Record<string, Uint8Array>,
  timeoutMs = 240_000,
): Record<string, Uint8Array | null> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'soffice-reference-'));
  try {
    const inputs = path.join(dir, 'in');
    const outputs = path.join(dir, 'out');
    mkdirSync(inputs);
    const names = Object.keys(documents);
    names.forEach((name, i) => writeFileSync(path.join(inputs, `d${i}.docx`), documents[name]!));
    try {
      execFileSync(
        'soffice',
        [
          `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
          '--headless',
          '--norestore',
          '--convert-to',
          'pdf',
          '--outdir',
          outputs,
          ...names.map((_, i) => path.join(inputs, `d${i}.docx`)),
        ],
        { stdio: 'ignore', timeout: timeoutMs },
      );
    } catch {
      // A document soffice fails on leaves no PDF; the others are still there.
    }
    return Object.fromEntries(
      names.map((name, i) => {
        const pdf = path.join(outputs, `d${i}.pdf`);
        return [name, existsSync(pdf) ? new Uint8Array(readFileSync(pdf)) : null];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
