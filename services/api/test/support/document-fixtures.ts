// Test documents built in code (no committed binaries): docx via fflate, JPEG with a hand-built
// EXIF APP1 segment, PNG by hand, PDFs via pdf-lib.
import { deflateSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export function paragraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}
export const PAGE_BREAK = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';

export interface DocxOptions {
  /** Raw WordprocessingML for the body. */
  body: string;
  /** word/_rels/document.xml.rels relationships (raw XML elements). */
  relationships?: string;
  /** Extra zip entries. */
  extra?: Record<string, Uint8Array>;
  /** Override the content types. */
  contentTypes?: string;
  level?: 0 | 1 | 6 | 9;
}

export function buildDocx(options: DocxOptions): Uint8Array {
  const documentXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${W_NS}><w:body>${options.body}<w:sectPr/></w:body></w:document>`;
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${options.relationships ?? ''}</Relationships>`;
  return zipSync(
    {
      '[Content_Types].xml': strToU8(options.contentTypes ?? CONTENT_TYPES),
      '_rels/.rels': strToU8(ROOT_RELS),
      'word/document.xml': strToU8(documentXml),
      'word/_rels/document.xml.rels': strToU8(rels),
      ...options.extra,
    },
    { level: options.level ?? 6 },
  );
}

/** A two-page statement with recognisable text on each page. */
export function buildTwoPageDocx(): Uint8Array {
  return buildDocx({
    body:
      paragraph('Personal statement of Ada Lovelace, first page.') +
      paragraph('I would like to study analytical engines.') +
      PAGE_BREAK +
      paragraph('Second page: thank you for reading my statement.'),
  });
}

// ---- JPEG ---------------------------------------------------------------------------------

/** An APP1 Exif segment (big-endian TIFF) holding only the Orientation tag. */
export function exifSegment(orientation: number): Uint8Array {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** Inserts an EXIF segment right after SOI. */
export function withExif(jpeg: Uint8Array, orientation: number): Uint8Array {
  return Buffer.concat([jpeg.subarray(0, 2), exifSegment(orientation), jpeg.subarray(2)]);
}

// ---- PNG ----------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/**
 * An 8-bit PNG, colour type 2 (RGB) or 6 (RGBA). `pixel(x, y)` gives [r, g, b] (alpha 255).
 */
export function buildPng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
  options: { alpha?: boolean } = {},
): Uint8Array {
  const channels = options.alpha ? 4 : 3;
  const raw = Buffer.alloc((width * channels + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * channels + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const at = row + 1 + x * channels;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
      if (options.alpha) raw[at + 3] = 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = options.alpha ? 6 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
}

// ---- PDF ----------------------------------------------------------------------------------

export async function buildPdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, size: 14, font });
  return doc.save();
}

/** A table big enough to keep LibreOffice's layout busy for many seconds (a "hanging" document). */
export function buildSlowDocx(rows = 2000, cols = 10): Uint8Array {
  let table = '<w:tbl>';
  for (let r = 0; r < rows; r++) {
    table += '<w:tr>';
    for (let c = 0; c < cols; c++) {
      table += `<w:tc><w:p><w:r><w:t>${(r * 31 + c * 7) % 1000}</w:t></w:r></w:p></w:tc>`;
    }
    table += '</w:tr>';
  }
  return buildDocx({ body: `${table}</w:tbl>${paragraph('end')}`, level: 9 });
}

/** document.xml inflating to tens of MB from a small zip (the bomb of BENCHMARKS.md's early measurements). */
export function buildZipBombDocx(): Uint8Array {
  const filler = paragraph('A'.repeat(1000)).repeat(48_000);
  return buildDocx({ body: filler, level: 9 });
}

/** A .docm renamed .docx: macro-enabled main part and a VBA project. */
export function buildMacroDocx(): Uint8Array {
  const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/>
</Types>`;
  return buildDocx({
    body: paragraph('Enable content to see this statement.'),
    contentTypes,
    relationships:
      '<Relationship Id="rId9" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/>',
    extra: { 'word/vbaProject.bin': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3, 4]) },
  });
}

/**
 * The CVE-2020-27603 pattern: content pulled from a local file when the document is opened —
 * an image linked to `target`, and an INCLUDETEXT field reading it.
 */
export function buildLocalLinkDocx(target: string, options: { field?: boolean } = {}): Uint8Array {
  const url = `file://${target}`;
  const image = `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="linked"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="linked"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rIdLink"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  const field = `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDETEXT "${target}" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>placeholder</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
  return buildDocx({
    body: paragraph('My statement.') + image + (options.field === false ? '' : field),
    relationships: `<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${url}" TargetMode="External"/>`,
  });
}

/**
 * A real JPEG (rendered by pdftoppm): `width`×`height` pixels, white, with a red block in the
 * top-left corner, so a test can tell which way up the image is shown.
 */
export async function buildMarkedJpeg(width: number, height: number): Promise<Uint8Array> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([width, height]);
  page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(1, 1, 1) });
  page.drawRectangle({
    x: 0,
    y: height - height / 3,
    width: width / 3,
    height: height / 3,
    color: rgb(1, 0, 0),
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jpeg-fixture-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), await doc.save());
    execFileSync('pdftoppm', ['-jpeg', '-r', '72', '-singlefile', 'in.pdf', 'out'], { cwd: dir });
    return readFileSync(path.join(dir, 'out.jpg'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An encrypted copy of a PDF (qpdf, user password "secret"). */
export async function encryptPdf(pdf: Uint8Array): Promise<Uint8Array> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-fixture-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('qpdf', ['--encrypt', 'secret', 'owner', '256', '--', 'in.pdf', 'out.pdf'], {
      cwd: dir,
    });
    return readFileSync(path.join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A US Letter PDF of `pages` pages whose first page has a black block over its top-left quarter
 * and nothing else, so a picture of that page is dark there and white elsewhere.
 */
export async function buildBlockPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    if (i === 0) page.drawRectangle({ x: 0, y: 396, width: 306, height: 396 });
  }
  return doc.save();
}
