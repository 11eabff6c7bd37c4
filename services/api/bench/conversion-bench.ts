// Document conversion benchmark (issue #6), one run prints:
//  - docx→PDF median latency, warm pool vs a fresh `soffice --convert-to` per file (two-page docx)
//  - conversions per second with two concurrent jobs on a pool of two
//  - image→PDF median latency for a ~1 MB JPEG and a ~1 MB PNG (pdf-lib; PNG IDAT pass-through)
//  - uploaded PDF→stored PDF p50/p95 (qpdf, pdf-lib; repairs, appearances, layers), pdf-path-samples.ts
//  - the docx rewrite alone on a ~1 MB statement (docx-rewrite-figures.ts, which runs alone too)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { PDFDocument } from 'pdf-lib';
import { createOfficePool } from '../src/modules/documents/conversion/libreoffice/office-pool';
import { createDocumentConverter } from '../src/modules/documents/conversion/convert-document';
import { loadConfig } from '../src/platform/config';
import { createConfiguredSandbox } from '../src/platform/sandbox/sandbox-pool';
import { DOCUMENT_SANDBOX_TASKS } from '../src/modules/documents';
import {
  canPassPngThrough,
  convertJpeg,
  convertPng,
} from '../src/modules/documents/conversion/convert-image';
import { buildPng, buildTwoPageDocx } from '../test/support/document-fixtures';
import { formatMs as ms, percentile, reportBench } from '../../../bench/report';
import { measurePdfPath } from './pdf-path-samples';
import { measureDocxRewrite } from './docx-rewrite-figures';
import { readDescendantsCpuMs } from './process-tree-cpu';

const logger = pino({ level: 'silent' });
function stats(samples: number[]) {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'conversion-bench-'));
try {
  const docx = buildTwoPageDocx();
  const pool = createOfficePool({ size: 2, timeoutMs: 60_000, recycleAfter: 1000, logger });
  const sandbox = createConfiguredSandbox(loadConfig({}), logger, [DOCUMENT_SANDBOX_TASKS], {
    size: 2,
    niceness: 0,
  });
  const converter = createDocumentConverter({ pool, sandbox, logger });
  const bootStarted = performance.now();
  await pool.warm();
  const bootMs = performance.now() - bootStarted;

  // Warm pool, one at a time.
  for (let i = 0; i < 5; i++) await converter.convert({ bytes: docx, fileName: 'a.docx' });
  const warm: number[] = [];
  for (let i = 0; i < 40; i++) {
    warm.push(await time(() => converter.convert({ bytes: docx, fileName: 'a.docx' })));
  }
  const warmStats = stats(warm);

  // Two concurrent jobs.
  const total = 80;
  let next = 0;
  const ownCpuBefore = process.cpuUsage();
  const childCpuBefore = readDescendantsCpuMs();
  const started = performance.now();
  await Promise.all(
    [0, 1].map(async () => {
      while (next++ < total) await converter.convert({ bytes: docx, fileName: 'a.docx' });
    }),
  );
  const perSecond = total / ((performance.now() - started) / 1000);
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const cpuPerDocx =
    ((ownCpu.user + ownCpu.system) / 1000 + readDescendantsCpuMs() - childCpuBefore) / total;
  await pool.close();
  await sandbox.close();

  // Fresh soffice per file (its profile already initialised, as a server's would be).
  const input = path.join(work, 'statement.docx');
  writeFileSync(input, docx);
  const profile = `file://${path.join(work, 'profile')}`;
  const convertCold = () =>
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--convert-to',
        'pdf',
        '--outdir',
        work,
        input,
      ],
      { stdio: 'ignore' },
    );
  convertCold();
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) cold.push(await time(async () => convertCold()));
  const coldStats = stats(cold);

  // Images: ~1 MB each.
  const noise = (x: number, y: number): [number, number, number] => {
    const h = Math.imul((x * 73856093) ^ (y * 19349663), 2654435761) >>> 0;
    return [h & 255, (h >>> 8) & 255, (h >>> 16) & 255];
  };
  const png = buildPng(590, 590, noise);
  // A JPEG made by poppler from a PDF holding a smoother picture, sized to just under 1 MB.
  const picture = buildPng(1600, 1200, (x, y) => {
    const [r, g, b] = noise(x >> 1, y >> 1);
    return [(r + x) & 255, (g + y) & 255, b];
  });
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(picture);
  doc.addPage([1600, 1200]).drawImage(image, { x: 0, y: 0, width: 1600, height: 1200 });
  writeFileSync(path.join(work, 'picture.pdf'), await doc.save());
  let jpeg = new Uint8Array();
  for (const quality of [95, 90, 85, 80, 70, 60, 50]) {
    execFileSync(
      'pdftoppm',
      [
        '-jpeg',
        '-jpegopt',
        `quality=${quality}`,
        '-r',
        '72',
        '-singlefile',
        'picture.pdf',
        'picture',
      ],
      { cwd: work },
    );
    jpeg = readFileSync(path.join(work, 'picture.jpg'));
    if (jpeg.length <= 1_048_576) break;
  }
  const imageSamples = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 10; i++) await fn();
    const samples: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < 50; i++) samples.push(await time(fn));
    const cpu = process.cpuUsage(cpuBefore);
    return { ...stats(samples), cpu: (cpu.user + cpu.system) / 1000 / samples.length };
  };
  const jpegStats = await imageSamples(() => convertJpeg(jpeg));
  const pngStats = await imageSamples(() => convertPng(png));
  const pdfStats = await measurePdfPath();
  const rewrite = measureDocxRewrite();

  reportBench({
    id: 'conversion',
    title: 'Document conversion (`services/api`, issue #6)',
    command: 'npm run bench -w services/api -- conversion',
    description:
      'Two-page docx built in code; warm pool = two long-lived LibreOffice processes driven over ' +
      'UNO by the python3-uno bridge, named import filter, zip checks included; "fresh" = ' +
      '`soffice --headless --convert-to pdf` per file with an already initialised profile. Images ' +
      'through pdf-lib: JPEG bytes passed through, PNG IDAT data passed through (8-bit RGB, ' +
      'non-interlaced, no alpha).',
    tables: [
      {
        columns: ['measure', 'result', 'target'],
        rows: [
          [
            'docx→PDF, warm pool, median of 40 (p95)',
            `${ms(warmStats.p50)} (${ms(warmStats.p95)})`,
            'p50 < 150 ms',
          ],
          ['docx→PDF, fresh `soffice --convert-to` per file, median of 5', ms(coldStats.p50), '—'],
          [
            'warm speed-up (fresh ÷ warm median)',
            `${(coldStats.p50 / warmStats.p50).toFixed(1)}×`,
            '≥ 10×',
          ],
          [
            'docx conversions per second, two concurrent jobs, pool of 2',
            `${perSecond.toFixed(1)}/s`,
            '≥ 18/s',
          ],
          [
            'CPU per docx in those two concurrent jobs (server, LibreOffice, sandbox children)',
            ms(cpuPerDocx),
            '—',
          ],
          [
            `JPEG→PDF, ${(jpeg.length / 1024).toFixed(0)} KiB photo-like JPEG, median of 50 (p95); CPU per conversion`,
            `${ms(jpegStats.p50)} (${ms(jpegStats.p95)}); CPU ${ms(jpegStats.cpu)}`,
            '< 10 ms',
          ],
          [
            `PNG→PDF, ${(png.length / 1024).toFixed(0)} KiB, median of 50 (p95); CPU per conversion, ${canPassPngThrough(png) ? 'IDAT pass-through, lossless' : 'embedPng'}`,
            `${ms(pngStats.p50)} (${ms(pngStats.p95)}); CPU ${ms(pngStats.cpu)}`,
            '< 10 ms',
          ],
          ...pdfStats.map((row) => [
            `PDF→PDF, ${row.label} (${row.bytes} B), median of 30 (p95)`,
            `${ms(row.p50)} (${ms(row.p95)})`,
            '—',
          ]),
          [
            `docx rewrite before LibreOffice (objects, links, macros out), ${(rewrite.bytes / 1024).toFixed(0)} KiB statement, median of ${rewrite.samples} (p95); CPU time`,
            `${ms(rewrite.p50)} (${ms(rewrite.p95)}); CPU ${ms(rewrite.cpuP50)} (${ms(rewrite.cpuP95)})`,
            'p95 ≤ 20 ms',
          ],
        ],
      },
    ],
    notes: [`LibreOffice pool of 2 started in ${ms(bootMs)}.`],
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
