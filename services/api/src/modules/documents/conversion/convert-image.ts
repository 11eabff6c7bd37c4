// png/jpeg → one-page PDF with pdf-lib, upright by EXIF orientation and fitted to a Letter page.
// What a PDF viewer shows exactly as stored is passed through: a baseline/progressive 8-bit grey or
// YCbCr JPEG as DCTDecode (with what libjpeg skips left out: image-jpeg-markers.ts), and an 8-bit,
// one-pass grey or RGB PNG without transparency or a gamma to apply as its own IDAT data in a
// FlateDecode stream with the PNG predictor (lossless, far faster than embedPng,
// BENCHMARKS.md). Everything else is decoded by libvips (image-pixels.ts): PNGs into 8-bit
// pixels on white embedded losslessly the same way, JPEGs re-encoded as YCbCr JPEG.
// Both converters stay pure (bytes in, PDF bytes out) so a sandboxed worker can run them.
import {
  PDFDocument,
  PDFName,
  PDFNumber,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFRef,
} from 'pdf-lib';
import { DocumentRejectedError } from './conversion-errors';
import { tidyJpegMarkers } from './image-jpeg-markers';
import { iccProfileFor, isPassThroughJpeg, readJpeg, type JpegInfo } from './image-jpeg';
import { orientationMatrix, swapsSides } from './image-orientation';
import {
  checkImageData,
  checkImagePixels,
  gammaThatMatters,
  isPassThroughPng,
  readPng,
  type PngInfo,
} from './image-png';
import { checkJpegDecodes, decodeToPlainJpeg, decodeToPlainPng } from './image-pixels';

export { readPng } from './image-png';

const PAGE = { width: 612, height: 792, margin: 36 };

/** Registers an 8-bit grey/RGB, one-pass PNG's compressed data as an image XObject. */
function embedPngData(doc: PDFDocument, png: PngInfo): PDFRef {
  const colors = png.colorType === 2 ? 3 : 1;
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

/**
 * Registers JPEG bytes as a DCTDecode image XObject. An embedded ICC profile goes with them as an
 * ICCBased colour space, so a viewer shows the colours the camera meant (a phone's Display P3).
 */
function embedJpegData(doc: PDFDocument, bytes: Uint8Array, jpeg: JpegInfo): PDFRef {
  const device = PDFName.of(jpeg.components === 1 ? 'DeviceGray' : 'DeviceRGB');
  const profile = iccProfileFor(jpeg);
  const colorSpace = profile
    ? doc.context.obj([
        PDFName.of('ICCBased'),
        doc.context.register(
          doc.context.flateStream(profile, { N: jpeg.components, Alternate: device }),
        ),
      ])
    : device;
  const stream = doc.context.stream(bytes, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: jpeg.width,
    Height: jpeg.height,
    ColorSpace: colorSpace,
    BitsPerComponent: 8,
    Filter: 'DCTDecode',
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

export async function convertJpeg(upload: Uint8Array): Promise<Uint8Array> {
  // What libjpeg reads of the upload (stray bytes, data after EOI left out; a missing EOI added):
  // the upload itself when it is exact, which is nearly always.
  const tidy = tidyJpegMarkers(upload);
  if (!tidy) throw new DocumentRejectedError('UNREADABLE', 'not a JPEG start of image');
  const bytes = tidy.bytes;
  const jpeg = readJpeg(bytes);
  checkImagePixels(jpeg.width, jpeg.height);
  let shown: { bytes: Uint8Array; info: JpegInfo };
  if (isPassThroughJpeg(jpeg)) {
    await checkJpegDecodes(bytes, jpeg.width, tidy.missingEnd);
    shown = { bytes, info: jpeg };
  } else {
    const plain = await decodeToPlainJpeg(bytes, tidy.missingEnd);
    shown = { bytes: plain, info: readJpeg(plain) };
    // libvips wrote it for us: anything but a plain sRGB JPEG is a bug, not the upload.
    if (!isPassThroughJpeg(shown.info)) throw new Error('libvips did not write a plain JPEG');
  }
  const doc = await PDFDocument.create();
  return placeOnPage(doc, embedJpegData(doc, shown.bytes, shown.info), jpeg, jpeg.orientation);
}

export async function convertPng(bytes: Uint8Array): Promise<Uint8Array> {
  const png = readPng(bytes);
  await checkImageData(png);
  let shown = png;
  if (!isPassThroughPng(png)) {
    const plain = await decodeToPlainPng(bytes, {
      grey: png.colorType === 0 || png.colorType === 4,
      gamma: gammaThatMatters(png),
      sixteenBit: png.bitDepth === 16,
    });
    shown = readPng(plain);
    // libvips wrote it for us: anything but a plain 8-bit grey/RGB PNG is a bug, not the upload.
    if (!isPassThroughPng(shown)) throw new Error('libvips did not write a plain 8-bit PNG');
  }
  const doc = await PDFDocument.create();
  return placeOnPage(doc, embedPngData(doc, shown), png, png.orientation);
}

/** Which path a PNG takes (header only): its own data, or decoded by libvips. */
export function canPassPngThrough(bytes: Uint8Array): boolean {
  return isPassThroughPng(readPng(bytes));
}
