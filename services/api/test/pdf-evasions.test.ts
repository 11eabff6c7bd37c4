// Red-team cases for the uploaded-PDF pipeline: costs and active content by routes the first
// version of the checks did not walk. Each PDF is written in a few lines of PDF syntax and judged
// by the applicant's message or by the bytes that would be stored.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { convertPdf } from '../src/modules/documents/conversion/convert-pdf';
import { DocumentRejectedError } from '../src/modules/documents/conversion/conversion-errors';
import { DOCUMENT_LIMITS } from '../src/modules/documents/conversion/limits';
import { stream, writePdf, type PdfObject } from './support/pdf-builder';
import { pdfText } from './support/pdf-inspect';

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const TEXT = 'BT /F1 12 Tf 72 700 Td (Visible statement text) Tj ET';
const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
/** Object 3: the one page, with `extra` in its dictionary and resources; 4 is its content, 5 the font. */
const page = (opts: { resources?: string; extra?: string; contents?: string } = {}) =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> ${opts.resources ?? ''} >> /Contents ${opts.contents ?? '4 0 R'} ${opts.extra ?? ''} >>`;
const onePage = (
  content: string,
  more: { resources?: string; extra?: string } = {},
  rest: PdfObject[] = [],
) => writePdf([CATALOG, PAGES, page(more), stream('', content), FONT, ...rest]);

async function rejection(bytes: Uint8Array): Promise<DocumentRejectedError> {
  try {
    await convertPdf(bytes);
  } catch (error) {
    if (error instanceof DocumentRejectedError) return error;
    throw error;
  }
  throw new Error('expected the PDF to be refused');
}

const overBudget = DOCUMENT_LIMITS.maxPdfInflatedBytes + 16 * 1024 * 1024;

describe('the PDF checks are not evaded', () => {
  it('by a Flate bomb wrapped in ASCIIHex, or by RunLength', async () => {
    const bomb = deflateSync(Buffer.alloc(overBudget), { level: 9 });
    const hex = writePdf([
      CATALOG,
      PAGES,
      page(),
      stream('/Filter [/ASCIIHexDecode /FlateDecode]', `${bomb.toString('hex')}>`),
      FONT,
    ]);
    expect((await rejection(hex)).userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
    // Each two-byte run (length byte 129, value 0) decodes to 128 zero bytes.
    const runs = Buffer.alloc(Math.ceil(overBudget / 128) * 2);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 129;
    const runLength = writePdf([
      CATALOG,
      PAGES,
      page(),
      stream('/Filter /RunLengthDecode', Buffer.concat([runs, Buffer.from([128])])),
      FONT,
    ]);
    expect((await rejection(runLength)).userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
  });

  it('by a JPEG or JPEG 2000 image whose own header is far larger than its /Width and /Height', async () => {
    // A baseline frame header (SOF0) for a 60000×60000 grey image, then EOI.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0xea, 0x60, 0xea, 0x60, 1, 1, 0x11, 0, 0xff, 0xd9,
    ]);
    // SOC, then SIZ: Lsiz 41, Rsiz 0, Xsiz = Ysiz = 60000, offsets 0, tiles, one component.
    const siz = Buffer.alloc(4 + 41);
    siz.writeUInt32BE(0xff4fff51, 0);
    siz.writeUInt16BE(41, 4);
    siz.writeUInt32BE(60000, 8);
    siz.writeUInt32BE(60000, 12);
    siz.writeUInt32BE(60000, 24);
    siz.writeUInt32BE(60000, 28);
    siz.writeUInt16BE(1, 40);
    siz[42] = 7;
    siz[43] = 1;
    siz[44] = 1;
    for (const [filter, data] of [
      ['/DCTDecode', jpeg],
      ['/JPXDecode', siz],
    ] as const) {
      const pdf = onePage(
        'q 100 0 0 100 0 0 cm /Im1 Do Q',
        { resources: '/XObject << /Im1 6 0 R >>' },
        [
          stream(
            `/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter ${filter}`,
            data,
          ),
        ],
      );
      expect((await rejection(pdf)).userMessage).toBe(DOCUMENT_MESSAGES.imageTooLarge);
    }
  });

  it('by an inline image (BI … ID … EI) of 100000×100000 pixels in a compressed content stream', async () => {
    const inline = (side: number) =>
      writePdf([
        CATALOG,
        PAGES,
        page(),
        stream(
          '/Filter /FlateDecode',
          deflateSync(
            Buffer.concat([
              Buffer.from(
                `${TEXT} q 100 0 0 100 72 400 cm BI /W ${side} /H ${side} /CS /G /BPC 8 ID `,
                'latin1',
              ),
              Buffer.alloc(side <= 10 ? side * side : 1000, 0x80),
              Buffer.from(' EI Q', 'latin1'),
            ]),
          ),
        ),
        FONT,
      ]);
    expect((await rejection(inline(100_000))).userMessage).toBe(DOCUMENT_MESSAGES.imageTooLarge);
    // A small inline image (logos, signatures) is ordinary.
    expect(pdfText(await convertPdf(inline(10)))).toContain('Visible statement text');
  });

  it('without a content stream of twelve million "BI" keeping the inline-image scan busy', async () => {
    // 60 MB decoded (under the inflate budget), 60 KB compressed; a scan that looks ahead for ID
    // from every BI took 167 s for this file.
    const content = Buffer.concat([
      Buffer.from(`${TEXT} q BI /W 10 /H 10 /CS /G /BPC 8 ID ${'x'.repeat(100)} EI Q\n`, 'latin1'),
      Buffer.from('q BI '.repeat(12_000_000), 'latin1'),
    ]);
    const pdf = writePdf([
      CATALOG,
      PAGES,
      page(),
      stream('/Filter /FlateDecode', deflateSync(content, { level: 9 })),
      FONT,
    ]);
    // Stored (the BIs are no images); judged by the converter, not by a viewer's patience.
    expect((await convertPdf(pdf)).length).toBeGreaterThan(0);
  }, 60_000);

  it('by a page whose /Contents lists one stream 100,000 times', async () => {
    const drawing = '0 0 m 600 700 l S '.repeat(500);
    const pdf = writePdf([
      CATALOG,
      PAGES,
      page({ contents: `[4 0 R ${'6 0 R '.repeat(100_000)}]` }),
      stream('', TEXT),
      FONT,
      stream('', drawing),
    ]);
    expect((await rejection(pdf)).userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
  });

  it('by nine form XObjects each drawing the next ten times (10^8 draws from 2.5 KB)', async () => {
    const laughs = (fanOut: number) => {
      const objects: PdfObject[] = [
        CATALOG,
        PAGES,
        page({ resources: '/XObject << /X0 6 0 R >>' }),
        stream('', `${TEXT} /X0 Do`),
        FONT,
      ];
      for (let level = 0; level < 9; level++) {
        const last = level === 8;
        objects.push(
          stream(
            `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X ${7 + level} 0 R >> >>`,
            last ? '0 0 m 612 792 l S' : '/X Do '.repeat(fanOut),
          ),
        );
      }
      return writePdf(objects);
    };
    expect((await rejection(laughs(10))).userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
    // The same nesting drawn once at each level is an ordinary document.
    expect(pdfText(await convertPdf(laughs(1)))).toContain('Visible statement text');
  });

  it('by an image drawn only by a soft mask group or a Type 3 glyph', async () => {
    const image = stream(
      '/Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
      deflateSync(Buffer.alloc(1000)),
    );
    const softMask = writePdf([
      CATALOG,
      PAGES,
      page({ resources: '/ExtGState << /GS1 << /SMask << /S /Luminosity /G 6 0 R >> >> >>' }),
      stream('', `/GS1 gs ${TEXT}`),
      FONT,
      stream(
        '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency /CS /DeviceGray >> /Resources << /XObject << /I 7 0 R >> >>',
        '612 0 0 792 0 0 cm /I Do',
      ),
      image,
    ]);
    const glyph = writePdf([
      CATALOG,
      PAGES,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /T3 6 0 R >> >> /Contents 4 0 R >>',
      stream('', `${TEXT} BT /T3 12 Tf 72 600 Td (a) Tj ET`),
      FONT,
      '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 7 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /XObject << /I 8 0 R >> >> >>',
      stream('', '1000 0 d0 1000 0 0 1000 0 0 cm /I Do'),
      image,
    ]);
    for (const pdf of [softMask, glyph]) {
      expect((await rejection(pdf)).userMessage).toBe(DOCUMENT_MESSAGES.imageTooLarge);
    }
  });

  it('refuses certificate (public-key) security as protected, not as damaged', async () => {
    const plain = Buffer.from(onePage(TEXT)).toString('latin1');
    const pdf = Buffer.from(
      plain.replace(
        '/Root 1 0 R',
        '/Root 1 0 R /Encrypt << /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /R 4 /Recipients [<3082>] /Length 128 >> /ID [<01><01>]',
      ),
      'latin1',
    );
    expect((await rejection(pdf)).userMessage).toBe(DOCUMENT_MESSAGES.pdfEncrypted);
  });

  it('stores no attachment or action reached through associated files, /Next chains or optional content', async () => {
    const pdf = writePdf([
      CATALOG,
      PAGES,
      page({ resources: '/XObject << /Fm 8 0 R >>', extra: '/AF [6 0 R] /AA << /O 9 0 R >>' }),
      stream('', `${TEXT} /Fm Do`),
      FONT,
      '<< /Type /Filespec /F (payload.exe) /UF (payload.exe) /AFRelationship /Data /EF << /F 7 0 R >> >>',
      stream('/Type /EmbeddedFile', 'MZ pretend executable'),
      stream('/Type /XObject /Subtype /Form /BBox [0 0 10 10] /OC 10 0 R /AF [6 0 R]', ''),
      '<< /S /GoTo /D [3 0 R /Fit] /Next 11 0 R >>',
      '<< /Type /OCG /Name (layer) /Usage << /Print 9 0 R >> >>',
      '<< /S /Launch /Win << /F (cmd.exe) /P (/c calc) >> /Next << /S /URI /URI (http://attacker.invalid/x) >> >>',
    ]);
    const stored = Buffer.from(await convertPdf(pdf));
    expect(pdfText(stored)).toContain('Visible statement text');
    for (const needle of ['MZ pretend', 'payload.exe', 'cmd.exe', 'attacker.invalid', '/Launch']) {
      expect(stored.includes(Buffer.from(needle, 'latin1')), needle).toBe(false);
    }
  });
});
