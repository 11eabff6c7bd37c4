// Do we read what a reader reads? Every PDF and image the test support builds goes through our
// converter and through a reference: poppler (pdfinfo) for PDFs, libjpeg/libpng through libvips
// with every warning tolerated for images. The outcomes must agree: what the reference opens we
// convert with its page count (or refuse for one of our bounds, which are policy, not reading),
// what it cannot open we refuse as damaged or protected. Files we repair where poppler gives up
// are listed apart, and what we store from them must open in poppler.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkUpload } from '../src/modules/documents/conversion/convert-document';
import { convertJpeg, convertPng } from '../src/modules/documents/conversion/convert-image';
import { convertPdf } from '../src/modules/documents/conversion/convert-pdf';
import { isDocumentRejected } from '../src/modules/documents/conversion/conversion-errors';
import {
  buildMarkedJpeg,
  buildPdf,
  buildPng,
  encryptPdf,
  withExif,
} from './support/document-fixtures';
import {
  assemblePdf,
  buildPageTreeBombPdf as buildFlatPageTreeBomb,
  damageJpeg,
} from './support/hostile-files';
import { buildYcckJpeg } from './support/jpeg-ycck';
import {
  buildActivePdf,
  buildAnnotatedPdf,
  buildLargeImagePdf,
  buildManyPagePdf,
  buildObjectStreamBombPdf,
  buildOptionalContentPdf,
  buildPageSizePdf,
  buildPageTreeBombPdf,
  buildTextPdf,
  encryptWithQpdf,
  type PdfWriteOptions,
} from './support/pdf-builder';
import { encodePng } from './support/png-encoder';

/** Refusals for a limit or a protection: the file was read, and our policy says no. */
const POLICY = new Set(['TOO_COMPLEX', 'TOO_MANY_PAGES', 'IMAGE_TOO_LARGE', 'PDF_ENCRYPTED']);
const JUNK = Buffer.from(
  'Received: by scanner\r\n\x00\x01\x02 binary preamble\r\n'.repeat(12),
  'latin1',
);

type Outcome =
  { kind: 'read'; pages: number } | { kind: 'protected' } | { kind: 'unreadable'; why: string };

function popplerOutcome(pdf: Uint8Array): Outcome {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agreement-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    const info = spawnSync('pdfinfo', ['in.pdf'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    if (/incorrect password/i.test(info.stderr)) return { kind: 'protected' };
    const pages = Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1] ?? 0);
    return info.status === 0 && pages > 0
      ? { kind: 'read', pages }
      : { kind: 'unreadable', why: info.stderr.trim().split('\n').pop() ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function decoderOutcome(image: Uint8Array): Promise<Outcome> {
  try {
    await sharp(image, { failOn: 'none', limitInputPixels: false }).raw().toBuffer();
    return { kind: 'read', pages: 1 };
  } catch (error) {
    return { kind: 'unreadable', why: (error as Error).message };
  }
}

type Ours = { kind: 'converted'; pages: number } | { kind: 'refused'; code: string };

async function ourOutcome(bytes: Uint8Array, fileName: string): Promise<Ours> {
  try {
    const type = checkUpload({ bytes, fileName });
    const convert = { pdf: convertPdf, jpeg: convertJpeg, png: convertPng, docx: null }[type];
    if (!convert) return { kind: 'refused', code: 'FILE_TYPE' };
    const pdf = await convert(bytes);
    const pages = popplerOutcome(pdf);
    // What we store must open in poppler itself.
    return pages.kind === 'read'
      ? { kind: 'converted', pages: pages.pages }
      : { kind: 'refused', code: 'STORED_UNREADABLE' };
  } catch (error) {
    if (isDocumentRejected(error)) return { kind: 'refused', code: error.code };
    throw error;
  }
}

async function pdfCases(): Promise<[string, Uint8Array][]> {
  const text = (options: PdfWriteOptions) => buildTextPdf(['Agreement sample'], options);
  return [
    ['text', text({})],
    ['text, wrong xref offsets', text({ damage: 'wrong-offsets' })],
    ['text, no xref', text({ damage: 'missing' })],
    ['text, junk before header', text({ junkBefore: JUNK })],
    ['text, trailer without /Root', text({ damage: 'no-root' })],
    ['text, /Root naming a missing object', text({ damage: 'dangling-root' })],
    ['text, unterminated trailer', text({ damage: 'unterminated-trailer' })],
    [
      'text, junk and unterminated trailer',
      text({ junkBefore: JUNK, damage: 'unterminated-trailer' }),
    ],
    ['3 pages', buildManyPagePdf(3)],
    ['51 pages', buildManyPagePdf(51)],
    ['page-tree bomb', buildPageTreeBombPdf()],
    ['page-tree bomb, flat', buildFlatPageTreeBomb(2000)],
    ['object-stream bomb 80 MB', buildObjectStreamBombPdf(80)],
    ['object stream 1 MB', buildObjectStreamBombPdf(1)],
    ['100×100 image', buildLargeImagePdf(100, 100)],
    ['7070×7070 image', buildLargeImagePdf(7070, 7070)],
    ['page 300 pt', buildPageSizePdf(300, 300)],
    ['page 15000 pt', buildPageSizePdf(15000, 15000)],
    ['active content', buildActivePdf()],
    ['active content, no /Root', buildActivePdf({ damage: 'no-root' })],
    ['owner password only', encryptWithQpdf(text({}), '')],
    ['user password', encryptWithQpdf(text({}), 'open sesame')],
    ['user password (fixtures)', await encryptPdf(await buildPdf('Secret'))],
    ['pdf-lib text', await buildPdf('Written by pdf-lib')],
    ['optional content', buildOptionalContentPdf()],
    ['annotations without appearances', buildAnnotatedPdf()],
    ['catalog without its page tree', assemblePdf(['<< /Type /Catalog /Pages 2 0 R >>'])],
    [
      'one page, empty resources',
      assemblePdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> >>',
      ]),
    ],
    ['garbage after header', Buffer.from('%PDF-1.7\nnot a PDF, renamed\n', 'latin1')],
  ];
}

async function imageCases(): Promise<[string, Uint8Array, string][]> {
  const jpeg = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  const marked = await buildMarkedJpeg(60, 40);
  const cases: [string, Uint8Array, string][] = [
    ['jpeg', jpeg, 'a.jpg'],
    ['jpeg, stray bytes', damageJpeg(jpeg, 'stray'), 'a.jpg'],
    ['jpeg, no EOI', damageJpeg(jpeg, 'no-end'), 'a.jpg'],
    ['jpeg, trailing data', damageJpeg(jpeg, 'trailing'), 'a.jpg'],
    ['marked jpeg', marked, 'a.jpg'],
    ['marked jpeg, EXIF 6', withExif(marked, 6), 'a.jpg'],
    ['ycck jpeg', await buildYcckJpeg(16, 16, [() => 40, () => 90, () => 128, () => 255]), 'a.jpg'],
    ['png rgb', buildPng(20, 10, (x) => [x * 10, 0, 0]), 'a.png'],
    ['png rgba', buildPng(20, 10, () => [0, 90, 0], { alpha: true }), 'a.png'],
  ];
  for (const [colorType, bitDepth] of [
    [0, 1],
    [0, 16],
    [2, 8],
    [3, 4],
    [4, 8],
    [6, 16],
  ] as const) {
    for (const interlace of [false, true]) {
      const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
      cases.push([
        `png type ${colorType} ${bitDepth}-bit${interlace ? ' interlaced' : ''}`,
        encodePng({
          width: 13,
          height: 7,
          colorType,
          bitDepth,
          interlace,
          pixel: (x, y) =>
            Array.from(
              { length: channels },
              (_, c) => ((x + y + c) % 2) * (colorType === 3 ? 1 : 2 ** bitDepth - 1),
            ),
          palette:
            colorType === 3
              ? [
                  [255, 0, 0],
                  [0, 0, 255],
                ]
              : undefined,
        }),
        'a.png',
      ]);
    }
  }
  return cases;
}

describe('our reading agrees with poppler and conforming decoders', () => {
  it('over every PDF and image the test support builds', async () => {
    const rows: {
      name: string;
      reference: Outcome;
      ours: Ours;
      agrees: boolean;
      beyond: boolean;
    }[] = [];
    const cases = [
      ...(await pdfCases()).map(([name, bytes]) => [name, bytes, 'a.pdf', 'pdf'] as const),
      ...(await imageCases()).map(([name, bytes, file]) => [name, bytes, file, 'image'] as const),
    ];
    for (const [name, bytes, fileName, kind] of cases) {
      const reference = kind === 'pdf' ? popplerOutcome(bytes) : await decoderOutcome(bytes);
      const ours = await ourOutcome(bytes, fileName);
      let agrees = false;
      let beyond = false;
      if (reference.kind === 'read') {
        agrees = ours.kind === 'converted' ? ours.pages === reference.pages : POLICY.has(ours.code);
      } else if (reference.kind === 'protected') {
        agrees = ours.kind === 'refused' && ours.code === 'PDF_ENCRYPTED';
      } else if (ours.kind === 'refused') {
        agrees = ['UNREADABLE', 'FILE_TYPE'].includes(ours.code) || POLICY.has(ours.code);
      } else {
        // Converted where poppler gives up (a trailer pdf.js and PDFium recover): poppler opens
        // what we stored (ourOutcome checked), so the applicant's document is shown.
        agrees = true;
        beyond = true;
      }
      rows.push({ name, reference, ours, agrees, beyond });
    }
    const agreeing = rows.filter((row) => row.agrees).length;
    const rate = agreeing / rows.length;
    const describe = (row: (typeof rows)[number]) =>
      `${row.name}: reference ${row.reference.kind}${row.reference.kind === 'read' ? ` ${row.reference.pages}p` : ''}, ours ${row.ours.kind === 'converted' ? `${row.ours.pages}p` : row.ours.code}`;
    console.warn(
      `conversion agreement: ${agreeing}/${rows.length} (${(rate * 100).toFixed(1)} %)` +
        `; read beyond poppler: ${
          rows
            .filter((row) => row.beyond)
            .map((row) => row.name)
            .join('; ') || 'none'
        }`,
    );
    expect(rows.filter((row) => !row.agrees).map(describe)).toEqual([]);
    expect(rate).toBeGreaterThanOrEqual(0.99);
  }, 300_000);
});
