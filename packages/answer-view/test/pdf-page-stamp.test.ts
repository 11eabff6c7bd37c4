// "Page X of Y" on appended documents whose pages have no free margin: the number must never be
// drawn over the document's content (rendered by pdftoppm and compared pixel by pixel).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { assembleApplicationPdf } from '../src/pdf/assemble';
import { pdfPageTexts } from './pdf-tools';

const DPI = 72;

interface Raster {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

function renderPage(pdf: Uint8Array, page: number): Raster {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'page-stamp-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    const range = ['-f', String(page), '-l', String(page)];
    execFileSync('pdftoppm', ['-r', String(DPI), ...range, '-singlefile', 'in.pdf', 'out'], {
      cwd: dir,
    });
    const ppm = readFileSync(path.join(dir, 'out.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
    const [width, height] = [Number(header[1]), Number(header[2])];
    const data = ppm.subarray(header[0].length);
    return {
      width,
      height,
      at: (x, y) => {
        const i = (y * width + x) * 3;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Box = { minX: number; minY: number; maxX: number; maxY: number };

/** Bounding boxes of the document's content (pure red) and of everything else that is not white. */
function measure(raster: Raster): {
  content: Box | null;
  stamp: Box | null;
  contentPixels: number;
} {
  const grow = (box: Box | null, x: number, y: number): Box =>
    box
      ? {
          minX: Math.min(box.minX, x),
          minY: Math.min(box.minY, y),
          maxX: Math.max(box.maxX, x),
          maxY: Math.max(box.maxY, y),
        }
      : { minX: x, minY: y, maxX: x, maxY: y };
  let content: Box | null = null;
  let stamp: Box | null = null;
  let contentPixels = 0;
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      const [r, g, b] = raster.at(x, y);
      if (r > 200 && g < 60 && b < 60) {
        content = grow(content, x, y);
        contentPixels += 1;
      } else if (r < 200 && g < 200 && b < 200) {
        // Dark grey to black, and anti-aliased glyph edges over red, are the stamp.
        stamp = grow(stamp, x, y);
      }
    }
  }
  return { content, stamp, contentPixels };
}

const overlaps = (a: Box, b: Box) =>
  a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

async function buildAnswers(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Answers', { x: 72, y: 700, size: 14, font });
  return doc.save();
}

/** A page of `width`×`height` points painted red to every edge, optionally turned. */
async function buildFullPage(width: number, height: number, rotation = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([width, height]);
  page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(1, 0, 0) });
  page.setRotation(degrees(rotation));
  return doc.save();
}

describe('assembleApplicationPdf: page numbers on uploaded pages', () => {
  it.each([
    ['a short wide page', 800, 120, 0],
    ['a page turned 90 degrees', 120, 500, 90],
    ['a page turned 270 degrees', 120, 500, 270],
    ['a page turned 180 degrees', 500, 90, 180],
  ])(
    'stamps %s beside its content, never on it, and keeps all of the content',
    async (_label, width, height, rotation) => {
      const pdf = await assembleApplicationPdf(await buildAnswers(), [
        { title: 'Transcript', bytes: await buildFullPage(width, height, rotation) },
      ]);
      expect(pdfPageTexts(pdf)[1]).toContain('Page 2 of 2');

      const { content, stamp, contentPixels } = measure(renderPage(pdf, 2));
      expect(stamp).not.toBeNull();
      expect(content).not.toBeNull();
      // The stamp's area holds no content pixel...
      expect(overlaps(stamp!, content!)).toBe(false);
      // ...and sits below the content as the page is shown.
      expect(stamp!.minY).toBeGreaterThan(content!.maxY);
      // Every point of the uploaded page is still shown in red (1 px of anti-aliasing per edge).
      const [shownWidth, shownHeight] = rotation % 180 === 0 ? [width, height] : [height, width];
      expect(contentPixels).toBeGreaterThanOrEqual((shownWidth - 2) * (shownHeight - 2));
    },
  );
});
