// EXIF orientation (1–8) read from a JPEG's APP1 segment or a PNG's eXIf chunk. pdf-lib ignores
// it (BENCHMARKS.md, measured before the code), so the converter turns the image itself.

/** The Orientation tag of a TIFF/EXIF block (starting at "MM"/"II"), or 1. */
export function readTiffOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const dv = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 1;
  const ifd = dv.getUint32(4, little);
  if (ifd + 2 > tiff.length) return 1;
  const count = dv.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return 1;
    if (dv.getUint16(at, little) === 0x0112) {
      const value = dv.getUint16(at + 8, little);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** Walks JPEG markers up to the first scan, looking for an Exif APP1. */
export function readJpegOrientation(jpeg: Uint8Array): number {
  const dv = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return 1;
    const marker = jpeg[at + 1]!;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return 1; // start of scan: no EXIF before it
    const length = dv.getUint16(at + 2);
    if (
      marker === 0xe1 &&
      length >= 8 &&
      jpeg[at + 4] === 0x45 && // E
      jpeg[at + 5] === 0x78 && // x
      jpeg[at + 6] === 0x69 && // i
      jpeg[at + 7] === 0x66 // f
    ) {
      return readTiffOrientation(jpeg.subarray(at + 10, at + 2 + length));
    }
    at += 2 + length;
  }
  return 1;
}

/** Orientations 5–8 turn the image a quarter: its displayed width is its stored height. */
export function swapsSides(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}

/**
 * The PDF transformation matrix [a b c d e f] that paints an image XObject (the unit square,
 * stored top row at v = 1) upright into the box (x, y, width, height) of the page.
 */
export function orientationMatrix(
  orientation: number,
  box: { x: number; y: number; width: number; height: number },
): [number, number, number, number, number, number] {
  // Displayed fractions from the left (dx) and from the top (dy) as affine functions of (u, v):
  // [constant, u coefficient, v coefficient].
  const table: Record<number, [[number, number, number], [number, number, number]]> = {
    1: [
      [0, 1, 0],
      [1, 0, -1],
    ],
    2: [
      [1, -1, 0],
      [1, 0, -1],
    ],
    3: [
      [1, -1, 0],
      [0, 0, 1],
    ],
    4: [
      [0, 1, 0],
      [0, 0, 1],
    ],
    5: [
      [1, 0, -1],
      [0, 1, 0],
    ],
    6: [
      [0, 0, 1],
      [0, 1, 0],
    ],
    7: [
      [0, 0, 1],
      [1, -1, 0],
    ],
    8: [
      [1, 0, -1],
      [1, -1, 0],
    ],
  };
  const [dx, dy] = table[orientation] ?? table[1]!;
  const { x, y, width: w, height: h } = box;
  return [w * dx[1], -h * dy[1], w * dx[2], -h * dy[2], x + w * dx[0], y + h - h * dy[0]];
}
