// Reading a PNG's structure without decoding its pixels: every chunk's CRC, the header's
// combination of colour type and bit depth, the pixel bound, the ancillary chunks that change what
// a viewer shows (tRNS, gAMA, sRGB, iCCP), and whether the compressed image data inflates to
// exactly the scanlines the header promises. Decoding itself is libvips' job (image-pixels.ts).
import { Readable } from 'node:stream';
import { createInflate, crc32 } from 'node:zlib';
import { DocumentRejectedError } from './conversion-errors';
import { readTiffOrientation } from './image-orientation';
import { DOCUMENT_LIMITS } from './limits';

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
  hasTransparency: boolean;
  /** The gAMA value (e.g. 0.45455), or null without one. */
  gamma: number | null;
  hasSrgb: boolean;
  hasIccProfile: boolean;
  orientation: number;
  idat: Uint8Array[];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Bit depths the PNG specification allows for each colour type (11.2.2, table 11.1). */
const DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

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

const unreadable = (detail: string) => new DocumentRejectedError('UNREADABLE', detail);

/** Refuses an image with more pixels than we decode, from its header alone. */
export function checkImagePixels(width: number, height: number): void {
  if (width * height > DOCUMENT_LIMITS.maxImagePixels) {
    throw new DocumentRejectedError('IMAGE_TOO_LARGE', `${width}×${height} pixels`);
  }
}

export function readPng(bytes: Uint8Array): PngInfo {
  if (!SIGNATURE.every((b, i) => bytes[i] === b)) throw unreadable('not a PNG signature');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info: PngInfo = {
    width: 0,
    height: 0,
    bitDepth: 0,
    colorType: 0,
    interlace: 0,
    hasTransparency: false,
    gamma: null,
    hasSrgb: false,
    hasIccProfile: false,
    orientation: 1,
    idat: [],
  };
  let hasPalette = false;
  let ended = false;
  let at = 8;
  while (!ended) {
    if (at + 12 > bytes.length) throw unreadable('truncated PNG');
    const length = dv.getUint32(at);
    if (length > 0x7fffffff || at + 12 + length > bytes.length) throw unreadable('truncated PNG');
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    // The CRC covers the type and the data; a mismatch means the file was damaged.
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== dv.getUint32(at + 8 + length)) {
      throw unreadable(`CRC error in ${type}`);
    }
    if (at === 8 && type !== 'IHDR') throw unreadable('PNG does not start with IHDR');
    switch (type) {
      case 'IHDR':
        if (at !== 8 || length !== 13) throw unreadable('misplaced or malformed IHDR');
        readHeader(data, info);
        // Before anything is decoded: the bound comes from the header alone.
        checkImagePixels(info.width, info.height);
        break;
      case 'PLTE':
        if (length === 0 || length % 3 !== 0 || length > 768) throw unreadable('malformed PLTE');
        hasPalette = true;
        break;
      case 'IDAT':
        info.idat.push(data);
        break;
      case 'tRNS':
        info.hasTransparency = true;
        break;
      case 'gAMA':
        if (length === 4) info.gamma = dv.getUint32(at + 8) / 100_000;
        break;
      case 'sRGB':
        info.hasSrgb = true;
        break;
      case 'iCCP':
        info.hasIccProfile = true;
        break;
      case 'eXIf':
        info.orientation = readTiffOrientation(data);
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        // An unknown critical chunk (upper-case first letter) means we cannot show the image.
        if (!/^[A-Za-z]{4}$/.test(type)) throw unreadable('malformed chunk type');
        if (type.charCodeAt(0) < 0x61) throw unreadable(`unknown critical chunk ${type}`);
    }
    at += 12 + length;
  }
  if (info.idat.length === 0) throw unreadable('PNG without image data');
  if (info.colorType === 3 && !hasPalette) throw unreadable('palette PNG without PLTE');
  return info;
}

function readHeader(data: Uint8Array, info: PngInfo) {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  info.width = dv.getUint32(0);
  info.height = dv.getUint32(4);
  info.bitDepth = data[8]!;
  info.colorType = data[9]!;
  info.interlace = data[12]!;
  if (!info.width || !info.height || info.width > 0x7fffffff || info.height > 0x7fffffff) {
    throw unreadable('PNG with an impossible size');
  }
  if (!DEPTHS[info.colorType]?.includes(info.bitDepth)) {
    throw unreadable(`bit depth ${info.bitDepth} is invalid for colour type ${info.colorType}`);
  }
  if (data[10] !== 0 || data[11] !== 0 || info.interlace > 1) {
    throw unreadable('unknown compression, filter or interlace method');
  }
}

/**
 * Whether gAMA changes what a viewer shows. sRGB or iCCP take precedence over it (PNG 11.3.3.2),
 * and a gamma within 1 % of 1/2.2 is the display's own.
 */
export function gammaThatMatters(png: PngInfo): number | null {
  if (png.gamma === null || png.gamma <= 0 || png.hasSrgb || png.hasIccProfile) return null;
  return Math.abs(png.gamma * 2.2 - 1) > 0.01 ? png.gamma : null;
}

/**
 * True when a PDF shows the PNG's own compressed data exactly: 8-bit grey or RGB, one pass, no
 * transparency, no gamma or colour profile to apply. (The data is still checked, see
 * checkImageData.)
 */
export function isPassThroughPng(png: PngInfo): boolean {
  return (
    (png.colorType === 0 || png.colorType === 2) &&
    png.bitDepth === 8 &&
    png.interlace === 0 &&
    !png.hasTransparency &&
    !png.hasIccProfile &&
    gammaThatMatters(png) === null
  );
}

/** Each pass's [rows, bytes per row including the filter byte]. */
function scanlineLayout(png: PngInfo): [number, number][] {
  const bitsPerPixel = CHANNELS[png.colorType]! * png.bitDepth;
  const rowBytes = (pixels: number) => Math.ceil((pixels * bitsPerPixel) / 8) + 1;
  if (png.interlace === 0) return [[png.height, rowBytes(png.width)]];
  return ADAM7.map(([x0, y0, dx, dy]): [number, number] => {
    const columns = Math.max(0, Math.ceil((png.width - x0) / dx));
    const rows = Math.max(0, Math.ceil((png.height - y0) / dy));
    return columns && rows ? [rows, rowBytes(columns)] : [0, 0];
  }).filter(([rows]) => rows > 0);
}

/**
 * Inflates the image data as a stream (nothing is kept) and checks it holds exactly the scanlines
 * the header promises, each with a known filter type. Decoders differ on damaged data — some
 * show grey, some refuse — and a PDF viewer would show whatever a passed-through stream holds.
 */
export async function checkImageData(png: PngInfo): Promise<void> {
  let offset = 0;
  const passes = scanlineLayout(png);
  const total = passes.reduce((sum, [rows, bytes]) => sum + rows * bytes, 0);
  let pass = 0;
  let rowInPass = 0;
  // The next position where a filter byte is due.
  const advance = () => {
    const [rows, bytes] = passes[pass]!;
    offset += bytes;
    rowInPass += 1;
    if (rowInPass === rows) {
      pass += 1;
      rowInPass = 0;
    }
  };
  let seen = 0;
  try {
    // 256 KB pieces: the 16 KB default costs an event-loop turn per 16 KB of a 75 MB image.
    const inflate = Readable.from(png.idat).pipe(createInflate({ chunkSize: 256 * 1024 }));
    for await (const piece of inflate as AsyncIterable<Buffer>) {
      const end = seen + piece.length;
      if (end > total) throw unreadable('more image data than the header describes');
      while (pass < passes.length && offset < end) {
        if (piece[offset - seen]! > 4) throw unreadable('unknown scanline filter');
        advance();
      }
      seen = end;
    }
  } catch (error) {
    if (error instanceof DocumentRejectedError) throw error;
    throw unreadable(`image data does not inflate: ${(error as Error).message}`);
  }
  if (seen !== total) throw unreadable('less image data than the header describes');
}
