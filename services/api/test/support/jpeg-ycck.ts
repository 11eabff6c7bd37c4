// A YCCK JPEG built in code. No encoder at hand writes YCCK (Adobe transform 2), but a baseline
// frame may code its components in separate scans, each with its own Huffman tables defined just
// before it: so four single-component greyscale JPEGs from sharp (the Y, Cb, Cr and K planes)
// are spliced into one four-component frame with an Adobe APP14 segment saying "YCCK".
import sharp from 'sharp';

interface Segment {
  marker: number;
  body: Buffer;
}

/** The marker segments of a baseline greyscale JPEG up to SOS, and its entropy-coded data. */
function splitJpeg(jpeg: Buffer): { segments: Segment[]; scan: Buffer } {
  const segments: Segment[] = [];
  let at = 2;
  for (;;) {
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    const body = jpeg.subarray(at + 4, at + 2 + length);
    if (marker === 0xda) {
      // The scan data runs to EOI (sharp writes no restart markers and nothing after the scan).
      return { segments, scan: jpeg.subarray(at + 2 + length, jpeg.length - 2) };
    }
    segments.push({ marker, body });
    at += 2 + length;
  }
}

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * A `width`×`height` YCCK JPEG whose four planes are given as functions returning 0–255 (the
 * stored Y, Cb, Cr and K samples, Adobe convention: K 255 is no black).
 */
export async function buildYcckJpeg(
  width: number,
  height: number,
  planes: [
    (x: number, y: number) => number,
    (x: number, y: number) => number,
    (x: number, y: number) => number,
    (x: number, y: number) => number,
  ],
): Promise<Buffer> {
  const parts = await Promise.all(
    planes.map(async (plane) => {
      const raw = Buffer.alloc(width * height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) raw[y * width + x] = plane(x, y);
      }
      const grey = await sharp(raw, { raw: { width, height, channels: 1 } })
        .toColourspace('b-w')
        .jpeg({ quality: 95, mozjpeg: false, progressive: false, optimiseCoding: false })
        .toBuffer();
      return splitJpeg(grey);
    }),
  );
  const adobe = Buffer.from([
    ...Buffer.from('Adobe', 'latin1'),
    0,
    100, // version
    0,
    0, // flags0
    0,
    0, // flags1
    2, // transform: YCCK
  ]);
  const out: Buffer[] = [Buffer.from([0xff, 0xd8]), segment(0xee, adobe)];
  // Quantisation tables 0–3, one per component (each grey JPEG defines its table 0).
  parts.forEach(({ segments }, i) => {
    const dqt = segments.find((s) => s.marker === 0xdb)!.body;
    if (dqt.length !== 65 || dqt[0] !== 0) throw new Error('expected one 8-bit table 0');
    out.push(segment(0xdb, Buffer.concat([Buffer.from([i]), dqt.subarray(1)])));
  });
  const sof = Buffer.alloc(6 + 4 * 3);
  sof[0] = 8;
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof[5] = 4;
  for (let i = 0; i < 4; i++) sof.set([i + 1, 0x11, i], 6 + 3 * i);
  out.push(segment(0xc0, sof));
  parts.forEach(({ segments, scan }, i) => {
    for (const s of segments.filter((s) => s.marker === 0xc4)) out.push(segment(0xc4, s.body));
    // One component (id i + 1) with DC/AC tables 0, spectral selection 0–63, no approximation.
    out.push(segment(0xda, Buffer.from([1, i + 1, 0x00, 0, 63, 0])), scan);
  });
  out.push(Buffer.from([0xff, 0xd9]));
  return Buffer.concat(out);
}
