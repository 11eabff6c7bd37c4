// PDFs checked the way a reader sees them: pdftotext for text, pdftoppm for pixels.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function inTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-inspect-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function pdfText(pdf: Uint8Array): string {
  return inTempDir((dir) => {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', 'in.pdf', '-'], { cwd: dir }).toString('utf8');
  });
}

/** The structure tree with its text, as `pdfinfo -struct-text` prints it (what a screen reader walks). */
export function pdfStructureText(pdf: Uint8Array): string {
  return inTempDir((dir) => {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    return execFileSync('pdfinfo', ['-struct-text', 'in.pdf'], { cwd: dir }).toString('utf8');
  });
}

export function pdfPageCount(pdf: Uint8Array): number {
  return inTempDir((dir) => {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    const info = execFileSync('pdfinfo', ['in.pdf'], { cwd: dir }).toString('utf8');
    return Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  });
}

export interface Raster {
  width: number;
  height: number;
  /** RGB of a pixel. */
  at(x: number, y: number): [number, number, number];
}

/** Renders page 1 as a PPM and parses it. */
export function renderFirstPage(pdf: Uint8Array, dpi = 36): Raster {
  return inTempDir((dir) => {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync(
      'pdftoppm',
      ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', 'in.pdf', 'out'],
      {
        cwd: dir,
      },
    );
    return parsePpm(readFileSync(path.join(dir, 'out.ppm')));
  });
}

function parsePpm(ppm: Buffer): Raster {
  // P6\n<w> <h>\n255\n<data>
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a PPM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const data = ppm.subarray(header[0].length);
  return {
    width,
    height,
    at(x, y) {
      const i = (y * width + x) * 3;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

/** The first image embedded in the PDF, decoded by pdfimages (exactly as stored). */
export function extractFirstImage(pdf: Uint8Array): Raster {
  return inTempDir((dir) => {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdfimages', ['-f', '1', '-l', '1', 'in.pdf', 'img'], { cwd: dir });
    return parsePpm(readFileSync(path.join(dir, 'img-000.ppm')));
  });
}

/** The bounding box of the pixels that are clearly red. */
export function findRedBox(raster: Raster) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      const [r, g, b] = raster.at(x, y);
      if (r > 180 && g < 90 && b < 90) {
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return maxX < 0 ? null : { minX, minY, maxX, maxY };
}

/** True while a process with this PID exists (a zombie counts: it has not been reaped). */
export function processExists(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`);
    return true;
  } catch {
    return false;
  }
}
