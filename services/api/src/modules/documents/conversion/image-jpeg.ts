// Reading a JPEG's frame header without decoding it: size, precision, components, coding
// process and the Adobe colour transform — enough to know whether a PDF viewer's DCTDecode shows
// the bytes exactly as a conforming decoder would.
import { DocumentRejectedError } from './conversion-errors';
import { readJpegOrientation } from './image-orientation';

export interface JpegInfo {
  width: number;
  height: number;
  /** Bits per sample (8, or 12 for extended JPEG). */
  precision: number;
  components: number;
  /** The SOF marker's low nibble: 0 baseline, 1 extended, 2 progressive, 9+ arithmetic… */
  process: number;
  /** Component ids spell "RGB": libjpeg reads such a file as RGB, not YCbCr. */
  rgbIds: boolean;
  /** The Adobe APP14 transform flag (0 none, 1 YCbCr, 2 YCCK), or null without that segment. */
  adobeTransform: number | null;
  orientation: number;
  /** The embedded ICC profile (APP2 ICC_PROFILE segments joined), when it is whole. */
  iccProfile: Uint8Array | null;
}

const unreadable = (detail: string) => new DocumentRejectedError('UNREADABLE', detail);

export function readJpeg(jpeg: Uint8Array): JpegInfo {
  // Only a JPEG reaches libvips as one: it picks its loader by content, not by our say-so.
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw unreadable('not a JPEG start of image');
  const dv = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let adobeTransform: number | null = null;
  const iccParts = new Map<number, Uint8Array>();
  let iccCount = 0;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) throw unreadable('JPEG marker expected');
    const marker = jpeg[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // a scan or the end before any frame header
    const length = dv.getUint16(at + 2);
    if (length < 2 || at + 2 + length > jpeg.length) throw unreadable('truncated JPEG');
    if (
      marker === 0xee &&
      length >= 14 &&
      String.fromCharCode(...jpeg.subarray(at + 4, at + 9)) === 'Adobe'
    ) {
      adobeTransform = jpeg[at + 15]!;
    }
    if (
      marker === 0xe2 &&
      length > 16 &&
      String.fromCharCode(...jpeg.subarray(at + 4, at + 16)) === 'ICC_PROFILE\0'
    ) {
      iccParts.set(jpeg[at + 16]!, jpeg.subarray(at + 18, at + 2 + length));
      iccCount = jpeg[at + 17]!;
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (length < 8) throw unreadable('malformed JPEG frame header');
      const components = jpeg[at + 9]!;
      if (length < 8 + 3 * components) throw unreadable('malformed JPEG frame header');
      const ids = Array.from({ length: components }, (_, i) => jpeg[at + 10 + 3 * i]!);
      const info: JpegInfo = {
        precision: jpeg[at + 4]!,
        height: dv.getUint16(at + 5),
        width: dv.getUint16(at + 7),
        components,
        process: marker & 0x0f,
        rgbIds: ids.join() === '82,71,66',
        adobeTransform,
        orientation: readJpegOrientation(jpeg),
        iccProfile: joinIccProfile(iccParts, iccCount),
      };
      // A height of 0 defers it to a DNL marker after the first scan: rare, and unbounded here.
      if (!info.width || !info.height) throw unreadable('JPEG without a size in its header');
      if (![1, 3, 4].includes(components)) throw unreadable(`${components} JPEG components`);
      return info;
    }
    at += 2 + length;
  }
  throw unreadable('JPEG without a frame header');
}

/** The profile split over APP2 segments numbered 1…count, or null when a piece is missing. */
function joinIccProfile(parts: Map<number, Uint8Array>, count: number): Uint8Array | null {
  if (!count || parts.size !== count) return null;
  const pieces = Array.from({ length: count }, (_, i) => parts.get(i + 1));
  if (pieces.some((p) => !p)) return null;
  const profile = Buffer.concat(pieces as Uint8Array[]);
  // The header's own size must match, or the profile was cut.
  return profile.length >= 128 && profile.readUInt32BE(0) === profile.length ? profile : null;
}

/** An ICC profile a PDF can use for this JPEG: its colour space matches the components. */
export function iccProfileFor(jpeg: JpegInfo): Uint8Array | null {
  const profile = jpeg.iccProfile;
  if (!profile) return null;
  const space = String.fromCharCode(...profile.subarray(16, 20));
  return (jpeg.components === 3 && space === 'RGB ') || (jpeg.components === 1 && space === 'GRAY')
    ? profile
    : null;
}

/**
 * True when DCTDecode in a PDF shows the bytes as they are: Huffman-coded baseline, extended or
 * progressive, 8-bit, grey or YCbCr, with no ICC profile or one the PDF can carry (ICCBased).
 * CMYK/YCCK (viewers differ on Adobe's inverted CMYK), RGB-coded, 12-bit and arithmetic-coded
 * files are decoded instead.
 */
export function isPassThroughJpeg(jpeg: JpegInfo): boolean {
  if (![0, 1, 2].includes(jpeg.process) || jpeg.precision !== 8) return false;
  if (jpeg.iccProfile && !iccProfileFor(jpeg)) return false;
  if (jpeg.components === 1) return true;
  return jpeg.components === 3 && !jpeg.rgbIds && jpeg.adobeTransform !== 0;
}
