// The applicant's proof of what the admissions office will see: the converted PDF's page count
// and a small PNG of its first page. Runs in a sandbox child only (document-sandbox-tasks.ts):
// pdf-lib reads the page tree, and poppler's pdftoppm (native code, so under prlimit like qpdf)
// draws the page. The PDF is our own converter's output, but it still carries the applicant's
// content, so nothing here runs on the API's event loop.
import { execFile } from 'node:child_process';
import { DOCUMENT_THUMBNAIL_WIDTH as THUMBNAIL_WIDTH } from '@admissions/api-contract';

/** A page far taller than wide is drawn at most this tall (and narrower than THUMBNAIL_WIDTH). */
export const THUMBNAIL_MAX_HEIGHT = 2 * THUMBNAIL_WIDTH;

const PDFTOPPM_MEMORY_BYTES = 512 * 1024 * 1024;
const PDFTOPPM_CPU_SECONDS = 10;
const PDFTOPPM_TIMEOUT_MS = 15_000;
/** A 200 × 400 RGB PNG is far below this even uncompressed; more is not a thumbnail. */
const PDFTOPPM_MAX_OUTPUT_BYTES = 1024 * 1024;

export interface DocumentPreview {
  pageCount: number;
  /** The first page as a PNG, THUMBNAIL_WIDTH wide (narrower for a very tall page). */
  png: Uint8Array;
}

/** The pdftoppm size options that fit the page in THUMBNAIL_WIDTH × THUMBNAIL_MAX_HEIGHT. */
export function thumbnailScaleArgs(pageWidth: number, pageHeight: number): string[] {
  const tall = pageHeight * THUMBNAIL_WIDTH > pageWidth * THUMBNAIL_MAX_HEIGHT;
  return tall
    ? ['-scale-to-y', String(THUMBNAIL_MAX_HEIGHT), '-scale-to-x', '-1']
    : ['-scale-to-x', String(THUMBNAIL_WIDTH), '-scale-to-y', '-1'];
}

const SWAPPED_AXES: Record<string, string> = {
  '-scale-to-x': '-scale-to-y',
  '-scale-to-y': '-scale-to-x',
};

/** Page count and first-page thumbnail of a converted PDF; throws when poppler cannot draw it. */
export async function renderDocumentPreview(pdf: Uint8Array): Promise<DocumentPreview> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const pageCount = doc.getPageCount();
  const first = doc.getPage(0);
  const { width, height } = first.getSize();
  // pdftoppm draws the page turned by its /Rotate but scales it before turning: after a quarter
  // turn the page's height is the picture's width, so the two options trade places.
  const quarterTurn = Math.abs(first.getRotation().angle) % 180 === 90;
  const scale = quarterTurn
    ? thumbnailScaleArgs(height, width).map((arg) => SWAPPED_AXES[arg] ?? arg)
    : thumbnailScaleArgs(width, height);
  const png = await runPdftoppm(['-png', '-f', '1', '-l', '1', '-singlefile', ...scale, '-'], pdf);
  return { pageCount, png };
}

/** pdftoppm reading the PDF from stdin and writing the PNG to stdout, under hard limits. */
function runPdftoppm(args: readonly string[], input: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'prlimit',
      [`--as=${PDFTOPPM_MEMORY_BYTES}`, `--cpu=${PDFTOPPM_CPU_SECONDS}`, '--', 'pdftoppm', ...args],
      {
        encoding: 'buffer',
        timeout: PDFTOPPM_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: PDFTOPPM_MAX_OUTPUT_BYTES,
        // Only what poppler needs: no inherited secrets from the API's environment.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (error) {
          const detail = stderr.toString('utf8').trim().slice(0, 300);
          reject(new Error(`pdftoppm failed: ${error.message}${detail ? ` (${detail})` : ''}`));
          return;
        }
        if (stdout.length === 0) {
          reject(new Error('pdftoppm wrote no image'));
          return;
        }
        // A copy of its own: the IPC channel then sends these bytes, not a shared pool's.
        resolve(new Uint8Array(stdout));
      },
    );
    // pdftoppm may stop reading early (a failure); its exit code reports that, not this pipe.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  });
}
