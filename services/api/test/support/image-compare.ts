// Pixel-by-pixel comparison of an image converter's PDF with what the source should look like.
// The converter centres the image on a Letter page at 1 pt a pixel (when it fits), so rendering
// that box at 4× puts each source pixel on a 4×4 block whose centre is sampled: no edge blending.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PAGE = { width: 612, height: 792 };
const SCALE = 4;

export type Rgb = [number, number, number];

/** The image as pdftoppm shows it: `width`×`height` pixels sampled from the rendered page. */
export function renderPlacedImage(pdf: Uint8Array, width: number, height: number): Rgb[][] {
  if (width > 540 || height > 720)
    throw new Error('image is scaled on the page; pick a smaller one');
  const left = ((PAGE.width - width) / 2) * SCALE;
  const top = ((PAGE.height - height) / 2) * SCALE;
  const crop = { x: Math.floor(left), y: Math.floor(top) };
  const cropWidth = width * SCALE + 2;
  const cropHeight = height * SCALE + 2;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'image-compare-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    // -aa no -aaVector no: edges are not blended into the samples we take.
    execFileSync(
      'pdftoppm',
      [
        ...['-r', String(72 * SCALE), '-f', '1', '-l', '1', '-singlefile'],
        ...['-x', String(crop.x), '-y', String(crop.y)],
        ...['-W', String(cropWidth), '-H', String(cropHeight)],
        ...['-aa', 'no', '-aaVector', 'no', 'in.pdf', 'out'],
      ],
      { cwd: dir },
    );
    const ppm = readFileSync(path.join(dir, 'out.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('not a PPM');
    const rasterWidth = Number(header[1]);
    const data = ppm.subarray(header[0].length);
    return Array.from({ length: height }, (_, y) =>
      Array.from({ length: width }, (_, x) => {
        const px = Math.floor(left + (x + 0.5) * SCALE) - crop.x;
        const py = Math.floor(top + (y + 0.5) * SCALE) - crop.y;
        const i = (py * rasterWidth + px) * 3;
        return [data[i]!, data[i + 1]!, data[i + 2]!] as Rgb;
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Difference {
  /** Largest difference of one channel over all pixels. */
  maxChannel: number;
  /** Mean absolute difference over all channels of all pixels. */
  meanChannel: number;
  /** Pixels with a channel more than `tolerance` off. */
  offPixels: number;
  /** The first few of them, for the failure message. */
  examples: string[];
}

export function compareImages(
  actual: Rgb[][],
  expected: (x: number, y: number) => Rgb,
  tolerance: number,
): Difference {
  let maxChannel = 0;
  let sum = 0;
  let offPixels = 0;
  const examples: string[] = [];
  actual.forEach((row, y) =>
    row.forEach((pixel, x) => {
      const want = expected(x, y);
      const diff = Math.max(...pixel.map((v, c) => Math.abs(v - want[c]!)));
      pixel.forEach((v, c) => (sum += Math.abs(v - want[c]!)));
      maxChannel = Math.max(maxChannel, diff);
      if (diff > tolerance) {
        offPixels += 1;
        if (examples.length < 5) examples.push(`(${x},${y}) ${pixel.join()} ≠ ${want.join()}`);
      }
    }),
  );
  const count = actual.length * (actual[0]?.length ?? 0) * 3;
  return { maxChannel, meanChannel: count ? sum / count : 0, offPixels, examples };
}

/** Raw 8-bit pixels (sharp's `raw()` output) as a pixel function. */
export function rawPixels(
  data: Uint8Array,
  info: { width: number; channels: number },
): (x: number, y: number) => Rgb {
  return (x, y) => {
    const i = (y * info.width + x) * info.channels;
    return info.channels >= 3
      ? [data[i]!, data[i + 1]!, data[i + 2]!]
      : [data[i]!, data[i]!, data[i]!];
  };
}

/** The whole first page as pdftoppm renders it at `dpi`, row by row. */
export function renderPage(pdf: Uint8Array, dpi: number): Rgb[][] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'image-compare-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync(
      'pdftoppm',
      ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', 'in.pdf', 'out'],
      {
        cwd: dir,
      },
    );
    const ppm = readFileSync(path.join(dir, 'out.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('not a PPM');
    const [width, height] = [Number(header[1]), Number(header[2])];
    const data = ppm.subarray(header[0].length);
    return Array.from({ length: height }, (_, y) =>
      Array.from({ length: width }, (_, x) => {
        const i = (y * width + x) * 3;
        return [data[i]!, data[i + 1]!, data[i + 2]!] as Rgb;
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The pixels of a page rendering inside a PDF rectangle (points, origin bottom left). */
export function cropPoints(page: Rgb[][], rect: readonly number[], dpi: number): Rgb[][] {
  const scale = dpi / 72;
  const height = page.length;
  const [x0, y0, x1, y1] = rect as [number, number, number, number];
  const top = Math.max(0, Math.floor(height - y1 * scale));
  const bottom = Math.min(height, Math.ceil(height - y0 * scale));
  return page
    .slice(top, bottom)
    .map((row) => row.slice(Math.floor(x0 * scale), Math.ceil(x1 * scale)));
}

/** Pixels within `tolerance` of `colour` on every channel. */
export function countColour(pixels: Rgb[][], colour: readonly number[], tolerance: number): number {
  return pixels.flat().filter((p) => p.every((v, c) => Math.abs(v - colour[c]!) <= tolerance))
    .length;
}
