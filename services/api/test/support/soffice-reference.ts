// What a fresh `soffice --convert-to pdf` makes of documents, outside the converter (no pool,
// no checks): the reference the Word tests compare the converter's PDFs with. One soffice run
// converts a batch (its start-up costs seconds); a document that crashes it ends the batch, so
// those left without a PDF are tried again one by one. A document it cannot open has no PDF.
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
    const output = (i: number) => path.join(outputs, `d${i}.pdf`);
    names.forEach((name, i) => writeFileSync(path.join(inputs, `d${i}.docx`), documents[name]!));
    const run = (indexes: number[]) => {
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
            ...indexes.map((i) => path.join(inputs, `d${i}.docx`)),
          ],
          { stdio: 'ignore', timeout: timeoutMs },
        );
      } catch {
        // A document soffice fails on leaves no PDF; the others are still there.
      }
    };
    const missing = () => names.map((_, i) => i).filter((i) => !existsSync(output(i)));
    run(missing());
    for (const i of missing()) run([i]);
    return Object.fromEntries(
      names.map((name, i) => {
        return [name, existsSync(output(i)) ? new Uint8Array(readFileSync(output(i))) : null];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
