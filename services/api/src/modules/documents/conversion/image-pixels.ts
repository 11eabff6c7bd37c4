// Decoding with libvips (sharp) what a PDF cannot show as stored, into 8-bit grey or RGB pixels on
// white, handed back as a plain PNG (8-bit, one pass, no alpha) whose compressed data the PDF then
// embeds as it is. libvips decodes every PNG colour type, bit depth, Adam7 and tRNS, and every
// JPEG colour space (CMYK and YCCK through its CMYK profile), but it ignores gAMA (libpng only
// applies gamma when asked, and libvips does not ask), so a gamma that matters is applied here,
// the way browsers show such a PNG.
import sharp from 'sharp';
import { DocumentRejectedError } from './conversion-errors';
import { DOCUMENT_LIMITS } from './limits';

export interface DecodeOptions {
  /** Keep one grey channel rather than three equal ones (smaller, same pixels). */
  grey: boolean;
  /** The image's gAMA to decode for a 2.2 display, or null to take the samples as they are. */
  gamma: number | null;
  /** The source has 16-bit samples. */
  sixteenBit: boolean;
}

// No upload is decoded twice, so libvips' operation cache (up to 50 MB by default) would only
// hold on to the last applicant's pixels in a long-lived converter process.
sharp.cache(false);

/** PNG zlib level for the re-encoded pixels: 3 is ~2× faster than 6 for a few % more bytes. */
const COMPRESSION_LEVEL = 3;

/**
 * failOn 'error': a truncated or corrupt image is refused, a mere warning (a slightly wrong sRGB
 * profile, extraneous bytes between JPEG markers) is not. `strict` refuses warnings too: a JPEG
 * that came without EOI (given one by tidyJpegMarkers) is whole only when libjpeg finds all of its
 * last scan ("premature end of data segment" is a file cut off in the middle).
 */
function openImage(bytes: Uint8Array, strict = false) {
  return sharp(bytes, {
    failOn: strict ? 'warning' : 'error',
    limitInputPixels: DOCUMENT_LIMITS.maxImagePixels,
  });
}

function toRejection(error: unknown): DocumentRejectedError {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return new DocumentRejectedError('IMAGE_TOO_LARGE', message);
  return new DocumentRejectedError('UNREADABLE', `libvips: ${message}`);
}

/** Decodes the image and returns it as an 8-bit grey or RGB PNG, flattened on white. */
export async function decodeToPlainPng(
  bytes: Uint8Array,
  options: DecodeOptions,
): Promise<Uint8Array> {
  try {
    if (options.gamma === null) {
      return await openImage(bytes)
        .flatten({ background: '#ffffff' })
        .toColourspace(options.grey ? 'b-w' : 'srgb')
        .png({ compressionLevel: COMPRESSION_LEVEL, palette: false })
        .toBuffer();
    }
    // 16-bit samples stay 16-bit until the exponent is applied (dark linear greys would merge in
    // 8 bits); 8-bit and lower sources need no more than 8 (half the memory: 100 MB at 25 MP).
    const wide = options.sixteenBit;
    const { data, info } = await openImage(bytes)
      .ensureAlpha()
      .toColourspace(wide ? 'rgb16' : 'srgb')
      .raw({ depth: wide ? 'ushort' : 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const samples = wide
      ? new Uint16Array(data.buffer, data.byteOffset, data.byteLength / 2)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const pixels = applyGammaOnWhite(samples, wide ? 65535 : 255, options.gamma, options.grey);
    return await sharp(pixels, {
      raw: { width: info.width, height: info.height, channels: options.grey ? 1 : 3 },
    })
      .png({ compressionLevel: COMPRESSION_LEVEL, palette: false })
      .toBuffer();
  } catch (error) {
    throw toRejection(error);
  }
}

/**
 * RGBA → 8-bit grey or RGB: each colour sample raised to 1 / (gamma × 2.2), as PNG 12.6
 * prescribes for a display of gamma 2.2, then composited over white.
 */
function applyGammaOnWhite(
  rgba: Uint8Array | Uint16Array,
  max: number,
  gamma: number,
  grey: boolean,
): Uint8Array {
  const exponent = 1 / (gamma * 2.2);
  const decoded = new Float32Array(max + 1);
  for (let v = 0; v <= max; v++) decoded[v] = (v / max) ** exponent;
  const channels = grey ? 1 : 3;
  const out = new Uint8Array((rgba.length / 4) * channels);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += channels) {
    const alpha = rgba[i + 3]! / max;
    for (let c = 0; c < channels; c++) {
      out[o + c] = Math.round(255 * (alpha * decoded[rgba[i + c]!]! + 1 - alpha));
    }
  }
  return out;
}

/** Decodes a JPEG that a PDF cannot show as stored and re-encodes it as a baseline YCbCr JPEG. */
export async function decodeToPlainJpeg(bytes: Uint8Array, strict = false): Promise<Uint8Array> {
  try {
    // Quality 95 without chroma subsampling: the re-encoding error stays below what the eye
    // sees (a few levels per channel), at a fraction of a lossless copy's size for a photo.
    return await openImage(bytes, strict)
      .toColourspace('srgb')
      .jpeg({ quality: 95, chromaSubsampling: '4:4:4', mozjpeg: false, progressive: false })
      .toBuffer();
  } catch (error) {
    throw toRejection(error);
  }
}

/** Decodes a JPEG at 1/8 scale (libjpeg's DCT scaling: cheap) only to prove it is not damaged. */
export async function checkJpegDecodes(
  bytes: Uint8Array,
  width: number,
  strict = false,
): Promise<void> {
  try {
    await openImage(bytes, strict)
      .resize({ width: Math.max(1, Math.ceil(width / 8)) })
      .raw()
      .toBuffer();
  } catch (error) {
    throw toRejection(error);
  }
}
