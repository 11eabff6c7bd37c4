// A small PNG encoder for tests: any colour type, bit depth, interlace, PLTE, tRNS and gAMA from a
// pixel function, plus deliberately broken variants (a bad CRC, a bit depth the colour type does
// not allow). It writes exactly what it is told — validating is the converter's job.
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDeflate, crc32, deflateSync } from 'node:zlib';

export type PngColorType = 0 | 2 | 3 | 4 | 6;

/** Samples of each colour type: grey, RGB, palette index, grey+alpha, RGBA. */
export const CHANNELS: Record<PngColorType, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface PngSpec {
  width: number;
  height: number;
  colorType: PngColorType;
  bitDepth: number;
  interlace?: boolean;
  /** The samples of a pixel at the file's bit depth (a palette index for colour type 3). */
  pixel: (x: number, y: number) => number[];
  /** PLTE entries (colour type 3). */
  palette?: [number, number, number][];
  /** tRNS: one alpha per palette entry (type 3), the transparent grey (0) or [r, g, b] (2). */
  transparency?: number[];
  /** gAMA: the image gamma as a number (0.45455 for sRGB-like data, 1 for linear). */
  gamma?: number;
  /** An sRGB chunk (rendering intent 0), which makes a conforming viewer ignore gAMA. */
  srgb?: boolean;
  /** Corrupt the CRC of this chunk (the first one of that type). */
  badCrcIn?: 'IHDR' | 'IDAT' | 'IEND' | 'gAMA' | 'PLTE';
  /** Split the compressed data over this many IDAT chunks. */
  idatChunks?: number;
}

function chunk(type: string, data: Uint8Array, breakCrc = false): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(typed) ^ (breakCrc ? 0x00ff00ff : 0)) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** Adam7 passes: [x start, y start, x step, y step]. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Filtered scanlines (filter type 0) of a sub-image, samples packed MSB first. */
function packRows(spec: PngSpec, xs: number[], ys: number[]): Buffer {
  const channels = CHANNELS[spec.colorType];
  const rowBytes = Math.ceil((xs.length * channels * spec.bitDepth) / 8);
  const out = Buffer.alloc((rowBytes + 1) * ys.length);
  ys.forEach((y, row) => {
    const start = row * (rowBytes + 1) + 1;
    let bit = 0;
    for (const x of xs) {
      const samples = spec.pixel(x, y);
      for (let c = 0; c < channels; c++) {
        const value = samples[c] ?? 0;
        if (spec.bitDepth === 16) {
          out.writeUInt16BE(value, start + bit / 8);
        } else if (spec.bitDepth === 8) {
          out[start + bit / 8] = value;
        } else {
          const byte = start + Math.floor(bit / 8);
          const shift = 8 - spec.bitDepth - (bit % 8);
          out[byte] = out[byte]! | ((value & ((1 << spec.bitDepth) - 1)) << shift);
        }
        bit += spec.bitDepth;
      }
    }
  });
  return out;
}

const range = (start: number, end: number, step: number) =>
  Array.from({ length: Math.max(0, Math.ceil((end - start) / step)) }, (_, i) => start + i * step);

/** The uncompressed image data: one pass, or the seven Adam7 passes (empty ones left out). */
export function filteredImageData(spec: PngSpec): Buffer {
  if (!spec.interlace) {
    return packRows(spec, range(0, spec.width, 1), range(0, spec.height, 1));
  }
  const passes = ADAM7.map(([x0, y0, dx, dy]) => {
    const xs = range(x0, spec.width, dx);
    const ys = range(y0, spec.height, dy);
    return xs.length && ys.length ? packRows(spec, xs, ys) : Buffer.alloc(0);
  });
  return Buffer.concat(passes);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function header(spec: Pick<PngSpec, 'width' | 'height' | 'bitDepth' | 'colorType' | 'interlace'>) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(spec.width, 0);
  ihdr.writeUInt32BE(spec.height, 4);
  ihdr[8] = spec.bitDepth;
  ihdr[9] = spec.colorType;
  ihdr[12] = spec.interlace ? 1 : 0;
  return ihdr;
}

/**
 * A valid 8-bit PNG of one colour, however large: rows are deflated as a stream, so a 7070×7070
 * RGBA image (200 MB of pixels) costs a few hundred KB of memory and file.
 */
export async function encodeUniformPng(
  width: number,
  height: number,
  colorType: PngColorType,
): Promise<Uint8Array> {
  const row = Buffer.alloc(1 + width * CHANNELS[colorType], 0x80);
  row[0] = 0;
  const rows = (function* () {
    for (let y = 0; y < height; y++) yield row;
  })();
  const compressed = await buffer(Readable.from(rows).pipe(createDeflate({ level: 9 })));
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header({ width, height, bitDepth: 8, colorType })),
    chunk('IDAT', compressed),
    chunk('IEND', new Uint8Array()),
  ]);
}

export function encodePng(spec: PngSpec): Uint8Array {
  const bad = spec.badCrcIn;
  const chunks = [chunk('IHDR', header(spec), bad === 'IHDR')];
  if (spec.srgb) chunks.push(chunk('sRGB', Buffer.from([0])));
  if (spec.gamma !== undefined) {
    const gama = Buffer.alloc(4);
    gama.writeUInt32BE(Math.round(spec.gamma * 100_000));
    chunks.push(chunk('gAMA', gama, bad === 'gAMA'));
  }
  if (spec.palette) {
    chunks.push(chunk('PLTE', Buffer.from(spec.palette.flat()), bad === 'PLTE'));
  }
  if (spec.transparency) {
    const trns =
      spec.colorType === 3
        ? Buffer.from(spec.transparency)
        : Buffer.concat(
            spec.transparency.map((v) => {
              const b = Buffer.alloc(2);
              b.writeUInt16BE(v);
              return b;
            }),
          );
    chunks.push(chunk('tRNS', trns));
  }
  const compressed = deflateSync(filteredImageData(spec));
  const parts = spec.idatChunks ?? 1;
  const size = Math.ceil(compressed.length / parts);
  for (let i = 0; i < parts; i++) {
    const data = compressed.subarray(i * size, (i + 1) * size);
    chunks.push(chunk('IDAT', data, bad === 'IDAT' && i === 0));
  }
  chunks.push(chunk('IEND', new Uint8Array(), bad === 'IEND'));
  return Buffer.concat([SIGNATURE, ...chunks]);
}

/**
 * What a conforming viewer shows for a pixel, as 8-bit RGB on white: samples scaled to 0–1,
 * the palette looked up, tRNS applied, gamma decoded for a 2.2 display (unless sRGB is present),
 * then composited over white in display space (as browsers do).
 */
export function viewedPixel(spec: PngSpec, x: number, y: number): [number, number, number] {
  const max = 2 ** spec.bitDepth - 1;
  const samples = spec.pixel(x, y);
  let rgb: number[];
  let alpha = 1;
  switch (spec.colorType) {
    case 0:
      rgb = [samples[0]!, samples[0]!, samples[0]!].map((v) => v / max);
      if (spec.transparency && samples[0] === spec.transparency[0]) alpha = 0;
      break;
    case 2:
      rgb = samples.slice(0, 3).map((v) => v / max);
      if (spec.transparency && samples.slice(0, 3).every((v, i) => v === spec.transparency![i])) {
        alpha = 0;
      }
      break;
    case 3: {
      const index = samples[0]!;
      rgb = spec.palette![index]!.map((v) => v / 255);
      alpha = (spec.transparency?.[index] ?? 255) / 255;
      break;
    }
    case 4:
      rgb = [samples[0]!, samples[0]!, samples[0]!].map((v) => v / max);
      alpha = samples[1]! / max;
      break;
    case 6:
      rgb = samples.slice(0, 3).map((v) => v / max);
      alpha = samples[3]! / max;
      break;
  }
  const exponent = spec.gamma !== undefined && !spec.srgb ? 1 / (spec.gamma * 2.2) : 1;
  return rgb.map((v) => Math.round(255 * (alpha * v ** exponent + (1 - alpha)))) as [
    number,
    number,
    number,
  ];
}
