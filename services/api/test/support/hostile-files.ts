// The worst files an applicant can upload within 1 MB, built in code: each costs a converter or
// the application-PDF renderer far more than its size suggests (issue #14). Shared by the
// isolation test and the isolation benchmark.
import { deflateRawSync, constants } from 'node:zlib';
import sharp from 'sharp';
import { buildDocx } from './document-fixtures';

/** A PDF from numbered objects (each the text between `N 0 obj` and `endobj`), with its xref. */
export function assemblePdf(objects: (string | Buffer)[], rootRef = '1 0 R'): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root ${rootRef} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> >>';

/** A ~240 KB PDF whose page tree lists one page `references` times (pdf-lib's addPage is quadratic). */
export function buildPageTreeBombPdf(references = 40_000): Uint8Array {
  const kids = '3 0 R '.repeat(references);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${references} >>`,
    PAGE,
  ]);
}

/** adler32 of `prefix` followed by `zeros` zero bytes (zlib's trailer). */
function adler32WithZeros(prefix: Buffer, zeros: number): number {
  const MOD = 65521;
  let a = 1;
  let b = 0;
  for (const byte of prefix) {
    a = (a + byte) % MOD;
    b = (b + a) % MOD;
  }
  // Each zero byte leaves a alone and adds a to b.
  b = (b + ((a * (zeros % MOD)) % MOD)) % MOD;
  return ((b << 16) | a) >>> 0;
}

/**
 * A PDF with an object stream that inflates to ~`inflatedMb` MB of zeros (NUL is whitespace to a
 * PDF parser, so it parses). Built from one deflated megabyte repeated (each piece ends on a sync
 * flush, so the pieces concatenate into one valid stream): no 900 MB buffer in the test itself.
 */
export function buildObjectStreamBombPdf(inflatedMb = 900): Uint8Array {
  const MB = 1024 * 1024;
  const header = Buffer.from('5 0 null ', 'latin1');
  const first = deflateRawSync(Buffer.concat([header, Buffer.alloc(MB)]), {
    level: 9,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  const piece = deflateRawSync(Buffer.alloc(MB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0)); // an empty final block
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32WithZeros(header, inflatedMb * MB), 0);
  const data = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    first,
    ...Array.from({ length: inflatedMb - 1 }, () => piece),
    last,
    checksum,
  ]);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE,
    stream(`/Type /ObjStm /N 1 /First ${header.length - 5} /Filter /FlateDecode`, data),
  ]);
}

/** A 7070×7070 RGBA PNG (~194 KB): 200 MB of pixels once decoded. */
export async function buildHugePng(side = 7070): Promise<Uint8Array> {
  const png = await sharp({
    create: {
      width: side,
      height: side,
      channels: 4,
      background: { r: 250, g: 250, b: 250, alpha: 1 },
    },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return new Uint8Array(png);
}

/** A docx of `depth` tables nested in one another (~1.3 KB): LibreOffice's layout never ends. */
export function buildNestedTablesDocx(depth = 2000): Uint8Array {
  const open = '<w:tbl><w:tr><w:tc>';
  const close = '<w:p/></w:tc></w:tr></w:tbl>';
  return buildDocx({ body: `${open.repeat(depth)}<w:p/>${close.repeat(depth)}`, level: 9 });
}

/**
 * Damage libjpeg only warns about (and browsers and photo viewers show through): `stray` puts
 * bytes that are no marker before the first DQT and before the first scan (libjpeg: "extraneous
 * bytes before marker"), `no-end` cuts the EOI marker off, `trailing` appends data after EOI (as
 * some phone apps and messengers do).
 */
export function damageJpeg(jpeg: Uint8Array, damage: 'stray' | 'no-end' | 'trailing'): Uint8Array {
  const bytes = Buffer.from(jpeg);
  if (damage === 'no-end') return bytes.subarray(0, bytes.lastIndexOf(Buffer.from([0xff, 0xd9])));
  if (damage === 'trailing') {
    return Buffer.concat([bytes, Buffer.from('\0\0 ThumbnailTrailer v2 \xff\xd8 junk', 'latin1')]);
  }
  const dqt = bytes.indexOf(Buffer.from([0xff, 0xdb]));
  const sos = bytes.indexOf(Buffer.from([0xff, 0xda]));
  return Buffer.concat([
    bytes.subarray(0, dqt),
    Buffer.from([0x00, 0x13, 0x37]),
    bytes.subarray(dqt, sos),
    Buffer.from([0x0d, 0x0a]),
    bytes.subarray(sos),
  ]);
}
