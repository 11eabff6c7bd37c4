// png/jpeg → one-page PDF with pdf-lib, upright by EXIF orientation and fitted to a Letter page.
// JPEG bytes pass straight into the PDF (DCTDecode). An 8-bit, non-interlaced PNG without alpha
// or transparency passes its IDAT data straight through as a FlateDecode stream with the PNG
// predictor: lossless and ~50× faster than embedPng (GUIDE §6). Anything else uses embedPng.
import {
  PDFDocument,
  PDFNumber,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFRef,
} from 'pdf-lib';
import { DocumentRejectedError } from './conversion-errors';
import {
  orientationMatrix,
  readJpegOrientation,
  readTiffOrientation,
  swapsSides,
} from './image-orientation';

const PAGE = { width: 612, height: 792, margin: 36 };
/** Decoded pixels we accept (a 1 MB file cannot honestly need more; a decompression bomb does). */
const MAX_PIXELS = 50_000_000;

interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
  hasTransparency: boolean;
  orientation: number;
  idat: Uint8Array[];
}

export function readPng(bytes: Uint8Array): PngInfo {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info: PngInfo = {
    width: 0,
    height: 0,
    bitDepth: 0,
    colorType: 0,
    interlace: 0,
    hasTransparency: false,
    orientation: 1,
    idat: [],
  };
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = dv.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) throw new DocumentRejectedError('UNREADABLE', 'truncated PNG');
    if (type === 'IHDR') {
      info.width = dv.getUint32(at + 8);
      info.height = dv.getUint32(at + 12);
      info.bitDepth = bytes[at + 16]!;
      info.colorType = bytes[at + 17]!;
      info.interlace = bytes[at + 20]!;
    } else if (type === 'IDAT') info.idat.push(data);
    else if (type === 'tRNS') info.hasTransparency = true;
    else if (type === 'eXIf') info.orientation = readTiffOrientation(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!info.width || !info.height || info.idat.length === 0) {
    throw new DocumentRejectedError('UNREADABLE', 'PNG without header or image data');
  }
  return info;
}

function readJpegSize(jpeg: Uint8Array): { width: number; height: number } {
  const dv = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let at = 2;
  while (at + 9 <= jpeg.length) {
    if (jpeg[at] !== 0xff) break;
    const marker = jpeg[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = dv.getUint16(at + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: dv.getUint16(at + 5), width: dv.getUint16(at + 7) };
    }
    at += 2 + length;
  }
  throw new DocumentRejectedError('UNREADABLE', 'JPEG without a frame header');
}

/** Registers the PNG's own compressed data as an image XObject, or null when it cannot. */
function embedPngDirect(doc: PDFDocument, png: PngInfo): PDFRef | null {
  const colors = png.colorType === 2 ? 3 : png.colorType === 0 ? 1 : 0;
  if (!colors || png.bitDepth !== 8 || png.interlace !== 0 || png.hasTransparency) return null;
  const total = png.idat.reduce((n, c) => n + c.length, 0);
  const data = new Uint8Array(total);
  let offset = 0;
  for (const chunk of png.idat) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  const stream = doc.context.stream(data, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: png.width,
    Height: png.height,
    ColorSpace: colors === 3 ? 'DeviceRGB' : 'DeviceGray',
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
    DecodeParms: doc.context.obj({
      Predictor: PDFNumber.of(15),
      Colors: PDFNumber.of(colors),
      BitsPerComponent: PDFNumber.of(8),
      Columns: PDFNumber.of(png.width),
    }),
  });
  return doc.context.register(stream);
}

async function placeOnPage(
  doc: PDFDocument,
  image: PDFRef,
  size: { width: number; height: number },
  orientation: number,
): Promise<Uint8Array> {
  const shown = swapsSides(orientation)
    ? { width: size.height, height: size.width }
    : { width: size.width, height: size.height };
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const scale = Math.min(
    (PAGE.width - 2 * PAGE.margin) / shown.width,
    (PAGE.height - 2 * PAGE.margin) / shown.height,
    1,
  );
  const width = shown.width * scale;
  const height = shown.height * scale;
  const box = { x: (PAGE.width - width) / 2, y: (PAGE.height - height) / 2, width, height };
  const name = page.node.newXObject('Image', image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(...orientationMatrix(orientation, box)),
    drawObject(name),
    popGraphicsState(),
  );
  return doc.save({ useObjectStreams: false });
}

/** pdf-lib reads through the underlying ArrayBuffer from offset 0, so a pooled Buffer slice fails. */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

function checkPixels(width: number, height: number) {
  if (width * height > MAX_PIXELS)
    throw new DocumentRejectedError('TOO_COMPLEX', 'too many pixels');
}

export async function convertJpeg(bytes: Uint8Array): Promise<Uint8Array> {
  const size = readJpegSize(bytes);
  checkPixels(size.width, size.height);
  const doc = await PDFDocument.create();
  let image;
  try {
    image = await doc.embedJpg(ownBytes(bytes));
  } catch {
    throw new DocumentRejectedError('UNREADABLE', 'JPEG not embeddable');
  }
  return placeOnPage(doc, image.ref, size, readJpegOrientation(bytes));
}

export async function convertPng(bytes: Uint8Array): Promise<Uint8Array> {
  const png = readPng(bytes);
  checkPixels(png.width, png.height);
  const doc = await PDFDocument.create();
  let ref = embedPngDirect(doc, png);
  if (!ref) {
    try {
      ref = (await doc.embedPng(ownBytes(bytes))).ref;
    } catch {
      throw new DocumentRejectedError('UNREADABLE', 'PNG not decodable');
    }
  }
  return placeOnPage(doc, ref, png, png.orientation);
}

// Exposed for tests: which path a PNG takes.
export function canPassPngThrough(bytes: Uint8Array): boolean {
  const png = readPng(bytes);
  return (
    (png.colorType === 2 || png.colorType === 0) &&
    png.bitDepth === 8 &&
    png.interlace === 0 &&
    !png.hasTransparency
  );
}
