// PNG and JPEG conversion judged the way an applicant's reader sees it: every case is built in
// code, converted, rendered by pdftoppm and compared pixel by pixel with what the source looks like
// (the pixel function composited on white, or sharp's decode of the source JPEG).
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { DocumentRejectedError } from '../src/modules/documents/conversion/conversion-errors';
import { checkUpload } from '../src/modules/documents/conversion/convert-document';
import {
  canPassPngThrough,
  convertJpeg,
  convertPng,
} from '../src/modules/documents/conversion/convert-image';
import { damageJpeg } from './support/hostile-files';
import { buildYcckJpeg } from './support/jpeg-ycck';
import { compareImages, rawPixels, renderPlacedImage, type Rgb } from './support/image-compare';
import {
  encodePng,
  encodeUniformPng,
  viewedPixel,
  type PngColorType,
  type PngSpec,
} from './support/png-encoder';

/**
 * Lossless paths: every pixel within 1 level per channel (rounding of gamma and compositing).
 * JPEG: the same bytes decoded by poppler's libjpeg and by libvips differ in upsampling and IDCT,
 * and a decoded JPEG is re-encoded at quality 95: every channel within 12 levels, mean within 2.
 */
const PNG_TOLERANCE = 1;
const JPEG_TOLERANCE = { channel: 12, mean: 2 };

async function rejection(promise: Promise<unknown>): Promise<DocumentRejectedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DocumentRejectedError) return error;
    throw error;
  }
  throw new Error('expected the image to be refused');
}

async function expectPngLooksRight(spec: PngSpec) {
  const pdf = await convertPng(encodePng(spec));
  const shown = renderPlacedImage(pdf, spec.width, spec.height);
  const difference = compareImages(shown, (x, y) => viewedPixel(spec, x, y), PNG_TOLERANCE);
  expect(difference.examples).toEqual([]);
  expect(difference.offPixels).toBe(0);
}

/** Samples that reach both ends of the range and vary between neighbours in every pass. */
function busySample(x: number, y: number, c: number, max: number): number {
  const seed = (x * 37 + y * 101 + c * 59 + ((x * y) % 7) * 13) % 97;
  if (seed === 0) return 0;
  if (seed === 1) return max;
  return Math.round((seed / 96) * max);
}

/** A palette of `size` distinct colours, and for tRNS a mix of clear, half and opaque entries. */
function palette(size: number): [number, number, number][] {
  return Array.from({ length: size }, (_, i) => [
    (i * 53) % 256,
    (i * 97 + 40) % 256,
    255 - ((i * 29) % 256),
  ]);
}

function specFor(
  colorType: PngColorType,
  bitDepth: number,
  width: number,
  height: number,
  interlace: boolean,
): PngSpec {
  const max = 2 ** bitDepth - 1;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  const base = { width, height, colorType, bitDepth, interlace };
  if (colorType === 3) {
    const entries = Math.min(256, 2 ** bitDepth);
    return {
      ...base,
      palette: palette(entries),
      transparency: Array.from({ length: entries }, (_, i) => [0, 128, 255][i % 3]!),
      pixel: (x, y) => [busySample(x, y, 0, entries - 1)],
    };
  }
  return {
    ...base,
    pixel: (x, y) => Array.from({ length: channels }, (_, c) => busySample(x, y, c, max)),
  };
}

const VALID_DEPTHS: [PngColorType, number[]][] = [
  [0, [1, 2, 4, 8, 16]],
  [2, [8, 16]],
  [3, [1, 2, 4, 8]],
  [4, [8, 16]],
  [6, [8, 16]],
];
const SIZES: [number, number][] = [
  [1, 1],
  [7, 13],
  [33, 17],
  [100, 9],
];
const TYPE_NAMES = { 0: 'grey', 2: 'RGB', 3: 'palette+tRNS', 4: 'grey+alpha', 6: 'RGBA' };

describe('PNG conversion looks like its source', () => {
  const cases = VALID_DEPTHS.flatMap(([colorType, depths]) =>
    depths.flatMap((depth) =>
      [false, true].map((interlace) => ({
        colorType,
        depth,
        interlace,
        name: `${depth}-bit ${TYPE_NAMES[colorType]}${interlace ? ', Adam7 interlaced' : ''}`,
      })),
    ),
  );
  it.each(cases)(
    '$name, at 1×1, 7×13, 33×17 and 100×9',
    async ({ colorType, depth, interlace }) => {
      for (const [width, height] of SIZES) {
        await expectPngLooksRight(specFor(colorType, depth, width, height, interlace));
      }
    },
  );

  it('shows interlaced RGB images of sizes that are not multiples of 8 unscrambled', async () => {
    for (const [width, height] of [
      [9, 9],
      [15, 3],
      [3, 15],
      [17, 31],
    ] as const) {
      await expectPngLooksRight(specFor(2, 8, width, height, true));
    }
  });

  it('keeps the light greys of a 16-bit grey PNG with a transparent colour', async () => {
    // Greys from 60000 to 65534 are all distinct from white's 65535, which is the transparent one.
    const spec: PngSpec = {
      width: 40,
      height: 10,
      colorType: 0,
      bitDepth: 16,
      transparency: [65535],
      pixel: (x, y) => [y === 0 && x < 5 ? 65535 : 60000 + ((x * 139 + y * 17) % 5535)],
    };
    await expectPngLooksRight(spec);
    // The transparent colour also works in between the greys (a dark one, on white).
    await expectPngLooksRight({ ...spec, transparency: [0], pixel: (x) => [x % 3 ? 0 : 30000] });
  });

  it.each([1, 2, 4, 8])('applies a %i-bit grey transparent colour', async (bitDepth) => {
    const max = 2 ** bitDepth - 1;
    await expectPngLooksRight({
      width: 21,
      height: 5,
      colorType: 0,
      bitDepth,
      transparency: [max >> 1],
      pixel: (x, y) => [(x + y) % (max + 1)],
    });
  });

  it.each([8, 16])('applies a %i-bit RGB transparent colour', async (bitDepth) => {
    const max = 2 ** bitDepth - 1;
    await expectPngLooksRight({
      width: 13,
      height: 7,
      colorType: 2,
      bitDepth,
      transparency: [max, 0, max],
      pixel: (x, y) => ((x + y) % 3 === 0 ? [max, 0, max] : [busySample(x, y, 0, max), 0, max]),
    });
  });

  it('shows gAMA the way a conforming viewer does, unless sRGB overrides it', async () => {
    const ramp = (x: number) => [Math.round((x / 31) * 255)];
    const linear: PngSpec = {
      width: 32,
      height: 4,
      colorType: 0,
      bitDepth: 8,
      gamma: 1,
      pixel: (x) => ramp(x),
    };
    // Linear data looks brighter on a 2.2 display: mid grey 128 shows as ~186.
    expect(viewedPixel(linear, 16, 0)[0]).toBeGreaterThan(180);
    await expectPngLooksRight(linear);
    await expectPngLooksRight({ ...linear, colorType: 2, pixel: (x) => [ramp(x)[0]!, 90, 200] });
    await expectPngLooksRight({
      ...linear,
      gamma: 0.7,
      colorType: 4,
      pixel: (x) => [...ramp(x), x * 8],
    });
    // 16-bit linear darks: distinct on screen (0…52), though they would all be 0–7 in 8 bits.
    await expectPngLooksRight({ ...linear, bitDepth: 16, pixel: (x) => [x * 64] });
    // 1/2.2 is the display's own gamma, and sRGB makes a viewer ignore gAMA.
    await expectPngLooksRight({ ...linear, gamma: 0.45455 });
    await expectPngLooksRight({ ...linear, srgb: true });
    expect(canPassPngThrough(encodePng({ ...linear, gamma: 0.45455 }))).toBe(true);
    expect(canPassPngThrough(encodePng(linear))).toBe(false);
  });

  it('shows a PNG with an ICC profile in sRGB (a Display P3 red stays pure red)', async () => {
    const red = { width: 6, height: 4, channels: 3 as const, background: { r: 255, g: 0, b: 0 } };
    const p3 = await sharp({ create: red }).withIccProfile('p3').png().toBuffer();
    // Its stored samples are not sRGB red: passed through, they would show a duller red.
    const stored = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    expect([...stored.subarray(0, 3)]).not.toEqual([255, 0, 0]);
    expect(canPassPngThrough(p3)).toBe(false);
    const shown = renderPlacedImage(await convertPng(p3), 6, 4);
    const difference = compareImages(shown, () => [255, 0, 0], PNG_TOLERANCE);
    expect(difference.examples).toEqual([]);
  });

  it('passes an 8-bit grey or RGB PNG through, its data split over several IDAT chunks', async () => {
    for (const colorType of [0, 2] as const) {
      const spec = { ...specFor(colorType, 8, 33, 17, false), idatChunks: 3 };
      expect(canPassPngThrough(encodePng(spec))).toBe(true);
      await expectPngLooksRight(spec);
    }
    for (const spec of [specFor(2, 8, 33, 17, true), specFor(2, 16, 4, 4, false)]) {
      expect(canPassPngThrough(encodePng(spec))).toBe(false);
    }
  });
});

describe('PNG conversion refuses damaged files', () => {
  const good = specFor(2, 8, 12, 6, false);

  it.each([
    ['RGB at 4 bits', { colorType: 2, bitDepth: 4 }],
    ['palette at 16 bits', { colorType: 3, bitDepth: 16, palette: palette(4) }],
    ['RGBA at 1 bit', { colorType: 6, bitDepth: 1 }],
    ['grey at 3 bits', { colorType: 0, bitDepth: 3 }],
  ] as const)('refuses an invalid bit depth (%s) as unreadable', async (_, change) => {
    const error = await rejection(convertPng(encodePng({ ...good, ...change })));
    expect(error.code).toBe('UNREADABLE');
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.unreadable);
  });

  it.each(['IHDR', 'IDAT', 'gAMA', 'IEND'] as const)(
    'refuses a CRC error in %s as unreadable',
    async (chunk) => {
      const error = await rejection(convertPng(encodePng({ ...good, gamma: 1, badCrcIn: chunk })));
      expect(error.code).toBe('UNREADABLE');
      expect(error.userMessage).toBe(DOCUMENT_MESSAGES.unreadable);
    },
  );

  it('refuses a truncated PNG and image data that does not match the header', async () => {
    const png = encodePng(good);
    for (const cut of [20, png.length - 20]) {
      const error = await rejection(convertPng(png.subarray(0, cut)));
      expect(error.code).toBe('UNREADABLE');
    }
    // A header that promises one row more than the data holds, every CRC intact.
    const short = Buffer.from(png);
    short.writeUInt32BE(good.height + 1, 20);
    short.writeUInt32BE(crc32(short.subarray(12, 29)), 29);
    const error = await rejection(convertPng(short));
    expect(error.code).toBe('UNREADABLE');
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.unreadable);
  });

  it('refuses a 7070×7070 RGBA PNG from its header, before decoding it', async () => {
    const png = await encodeUniformPng(7070, 7070, 6);
    expect(png.length).toBeLessThan(400_000);
    const error = await rejection(convertPng(png));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.imageTooLarge);
  });
});

// ---- JPEG ---------------------------------------------------------------------------------

const JPEG_SIZE = { width: 48, height: 30 };

/** A photo-like source: smooth gradients, a hard-edged block and a marker in the top-left corner. */
function photoPixels(): Buffer {
  const { width, height } = JPEG_SIZE;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const marker = x < 12 && y < 8;
      data[i] = marker ? 230 : Math.round((x / width) * 200) + 20;
      data[i + 1] = marker ? 30 : Math.round((y / height) * 180) + 40;
      data[i + 2] = marker ? 40 : x > 30 && y > 15 ? 220 : 120;
    }
  }
  return data;
}

function photo() {
  return sharp(photoPixels(), { raw: { ...JPEG_SIZE, channels: 3 } });
}

/** Converts, renders, and compares with libvips' own decode of the source (upright). */
async function expectJpegLooksRight(jpeg: Uint8Array) {
  // libjpeg's decode with its warnings tolerated, as a photo viewer shows the file.
  const { data, info } = await sharp(jpeg, { failOn: 'none' })
    .autoOrient()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const shown = renderPlacedImage(await convertJpeg(jpeg), info.width, info.height);
  const difference = compareImages(shown, rawPixels(data, info), JPEG_TOLERANCE.channel);
  expect(difference.examples).toEqual([]);
  expect(difference.meanChannel).toBeLessThanOrEqual(JPEG_TOLERANCE.mean);
  return shown;
}

describe('JPEG conversion looks like its source', () => {
  it.each([
    ['baseline YCbCr', () => photo().jpeg({ quality: 90 })],
    ['progressive YCbCr', () => photo().jpeg({ quality: 90, progressive: true })],
    ['4:4:4 YCbCr', () => photo().jpeg({ quality: 90, chromaSubsampling: '4:4:4' })],
    ['greyscale', () => photo().toColourspace('b-w').jpeg({ quality: 90 })],
    ['Adobe CMYK (inverted)', () => photo().toColourspace('cmyk').jpeg({ quality: 90 })],
  ])('%s', async (_, build) => {
    await expectJpegLooksRight(await build().toBuffer());
  });

  it('shows a Display P3 JPEG (as phones write them) in its colours, its bytes passed through', async () => {
    const red = { ...JPEG_SIZE, channels: 3 as const, background: { r: 255, g: 0, b: 0 } };
    const p3 = await sharp({ create: red }).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    const stored = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    expect(stored[1]).toBeGreaterThan(30); // as plain sRGB its samples are a duller red
    const pdf = await convertJpeg(p3);
    expect(Buffer.from(pdf).includes(p3)).toBe(true);
    const shown = await expectJpegLooksRight(p3);
    const [r, g, b] = shown[10]![10]!;
    expect([r > 240, g < 20, b < 20]).toEqual([true, true, true]);
  });

  it('YCCK (Adobe transform 2)', async () => {
    const { width, height } = JPEG_SIZE;
    const ycck = await buildYcckJpeg(width, height, [
      (x) => 40 + x * 4,
      (_, y) => 90 + y * 3,
      (x, y) => (x < 12 && y < 8 ? 230 : 128),
      (x, y) => (x > 30 && y > 15 ? 160 : 255),
    ]);
    expect((await sharp(ycck).metadata()).channels).toBe(4);
    await expectJpegLooksRight(ycck);
  });

  it('shows a CMYK JPEG in its colours (the red marker stays red)', async () => {
    const cmyk = await photo().toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer();
    const shown = await expectJpegLooksRight(cmyk);
    const [r, g, b] = shown[3]![3]!;
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('turns EXIF orientation %i upright', async (orientation) => {
    const jpeg = await photo().jpeg({ quality: 90 }).withMetadata({ orientation }).toBuffer();
    const shown = await expectJpegLooksRight(jpeg);
    // Independently of libvips: where the red marker (stored top-left) ends up when upright.
    const { width, height } = JPEG_SIZE;
    const swapped = orientation >= 5;
    const shownWidth = swapped ? height : width;
    const shownHeight = swapped ? width : height;
    expect(shown[0]!.length).toBe(shownWidth);
    expect(shown.length).toBe(shownHeight);
    const corner: Record<number, [number, number]> = {
      1: [0, 0],
      2: [1, 0],
      3: [1, 1],
      4: [0, 1],
      5: [0, 0],
      6: [1, 0],
      7: [1, 1],
      8: [0, 1],
    };
    const [right, bottom] = corner[orientation]!;
    const x = right ? shownWidth - 3 : 2;
    const y = bottom ? shownHeight - 3 : 2;
    const [r, g] = shown[y]![x]! as Rgb;
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(90);
  });

  it('turns a decoded (CMYK) JPEG upright by the orientation of its source', async () => {
    const cmyk = await photo()
      .toColourspace('cmyk')
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const shown = await expectJpegLooksRight(cmyk);
    expect([shown[0]!.length, shown.length]).toEqual([JPEG_SIZE.height, JPEG_SIZE.width]);
  });

  it('refuses a JPEG whose header claims more pixels than the limit, before decoding', async () => {
    const jpeg = Buffer.from(await photo().jpeg().toBuffer());
    // Patch the frame header (SOF0) to 6000×5000 = 30 MP.
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(5000, sof + 5);
    jpeg.writeUInt16BE(6000, sof + 7);
    const error = await rejection(convertJpeg(jpeg));
    expect(error.code).toBe('IMAGE_TOO_LARGE');
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.imageTooLarge);
  });

  it.each([
    ['stray bytes before its markers', 'stray' as const],
    ['no EOI marker at its end', 'no-end' as const],
    ['data after its EOI marker', 'trailing' as const],
  ])('converts a JPEG with %s, as libjpeg reads it, its scan data unchanged', async (_, damage) => {
    const clean = await photo().jpeg({ quality: 90 }).toBuffer();
    const damaged = damageJpeg(clean, damage);
    expect(Buffer.compare(damaged, clean)).not.toBe(0);
    expect(checkUpload({ bytes: damaged, fileName: 'photo.jpg' })).toBe('jpeg');
    await expectJpegLooksRight(damaged);
    // Not re-encoded: the stored image is the upload's own scan, the damage left out.
    const pdf = Buffer.from(await convertJpeg(damaged));
    const sos = clean.indexOf(Buffer.from([0xff, 0xda]));
    expect(pdf.includes(clean.subarray(sos))).toBe(true);
    // What libjpeg skips is not stored (data after EOI may be a whole other file).
    for (const skipped of ['ThumbnailTrailer', '\0\x13\x37', '\r\n\xff\xda']) {
      expect(pdf.includes(Buffer.from(skipped, 'latin1')), skipped).toBe(false);
    }
  });

  it('refuses a JPEG cut off inside its scan even when EOI is put back', async () => {
    const jpeg = await photo().jpeg().toBuffer();
    const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    const error = await rejection(convertJpeg(Buffer.concat([cut, Buffer.from([0xff, 0xd9])])));
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.unreadable);
  });

  it('refuses a truncated JPEG as unreadable', async () => {
    const jpeg = await photo().jpeg().toBuffer();
    const error = await rejection(convertJpeg(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))));
    expect(error.code).toBe('UNREADABLE');
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.unreadable);
  });
});
