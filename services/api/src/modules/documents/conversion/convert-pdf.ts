// pdf → repaired, bounded and inert. The bounds that cost nothing to check come first (inflated
// size, page tree), qpdf repairs and decrypts under hard limits, then the pages are copied into a
// new document without scripts, actions, links, attachments or form fields.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { DocumentRejectedError, isDocumentRejected } from './conversion-errors';
import { DOCUMENT_LIMITS } from './limits';
import { prepareAnnotations } from './pdf-annotation-appearances';
import { saveInertCopy } from './pdf-inert';
import { hideOptionalContent } from './pdf-optional-content';
import { measureInflatedBytes } from './pdf-inflate-budget';
import { runQpdf, type QpdfOutcome } from './pdf-qpdf';
import { isTrailerFailure, withRebuiltTrailer } from './pdf-trailer-repair';
import { checkInlineImages, checkPageContents, checkPageTree } from './pdf-structure';

/** qpdf's exit codes: 0 clean, 3 done with warnings (a repaired file), 2 failed. */
const QPDF_OK = new Set([0, 3]);
/**
 * Rewrite without inflating anything but object streams (already measured). Warnings stay on:
 * runQpdf reads them for allocation failures.
 */
const PRESERVE_STREAMS = ['--stream-data=preserve', '--decode-level=none'];
/** Sits in the trailer or the xref stream's dictionary, both uncompressed, of an encrypted file. */
const ENCRYPT_KEY = Buffer.from('/Encrypt', 'latin1');

export async function convertPdf(bytes: Uint8Array): Promise<Uint8Array> {
  checkInflatedSize(bytes);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'convert-pdf-'));
  try {
    await writeFile(path.join(dir, 'upload.pdf'), bytes, { mode: 0o600 });
    let needsPassword = await runQpdf(['--requires-password', 'upload.pdf'], dir);
    if (needsPassword.kind === 'exit' && isTrailerFailure(needsPassword.stderr)) {
      // Every later step, bound and check reads the repaired file, never the upload.
      const repaired = withRebuiltTrailer(bytes);
      if (repaired) {
        await writeFile(path.join(dir, 'upload.pdf'), repaired, { mode: 0o600 });
        needsPassword = await runQpdf(['--requires-password', 'upload.pdf'], dir);
      }
    }
    if (needsPassword.kind === 'exit' && needsPassword.code === 0) {
      throw new DocumentRejectedError('PDF_ENCRYPTED');
    }
    // Repairs a damaged cross-reference table, removes owner-password encryption and writes
    // every object plainly, so pdf-lib never meets an object stream or a broken xref.
    await rewrite(dir, 'upload.pdf', 'plain.pdf', [
      '--decrypt',
      '--remove-restrictions',
      '--object-streams=disable',
    ]);
    const plain = await readFile(path.join(dir, 'plain.pdf'));
    if (plain.length > DOCUMENT_LIMITS.maxPdfPlainBytes) {
      throw new DocumentRejectedError('TOO_COMPLEX', `${plain.length} bytes of objects`);
    }
    // Encrypted streams could not be measured before decryption.
    if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPT_KEY)) {
      checkInflatedSize(plain);
    }
    await checkDecodedStreams(dir, plain.length);
    const parsed = await loadPdf(plain);
    await asDocumentProblem(async () => checkPageTree(parsed));
    // Annotations viewers draw without a stored appearance get one (qpdf flattens only those).
    let annotated = 'plain.pdf';
    if (await asDocumentProblem(async () => prepareAnnotations(parsed))) {
      annotated = 'annotated.pdf';
      const bytes = await parsed.save({ useObjectStreams: false, addDefaultPage: false });
      await writeFile(path.join(dir, annotated), bytes, { mode: 0o600 });
    }
    // Draws form fields and annotation appearances into the page content (qpdf walks every page,
    // which is why the page tree is bounded first).
    // Streams are not decoded here either, but --stream-data=preserve would also keep qpdf from
    // writing the appearances it generates for choice fields (a list box would vanish).
    await rewrite(
      dir,
      annotated,
      'flat.pdf',
      ['--flatten-annotations=all', '--generate-appearances'],
      ['--decode-level=none'],
    );
    return await readDocument(await readFile(path.join(dir, 'flat.pdf')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Every stream decoded by qpdf through every filter chain it knows (LZW, RunLength, ASCII85 or
 * ASCIIHex around Flate…: the byte scan before qpdf only measures bare Flate), into a file the
 * kernel caps at the inflate budget. The decoded content streams are then plain operators, where
 * inline images (BI … ID … EI, drawn by every viewer) show their size.
 */
async function checkDecodedStreams(dir: string, plainBytes: number) {
  const outcome = await runQpdf(
    ['--stream-data=uncompress', '--decode-level=specialized', 'plain.pdf', 'decoded.pdf'],
    dir,
    DOCUMENT_LIMITS.maxPdfInflatedBytes + plainBytes,
  );
  if (outcome.kind === 'limit') {
    throw new DocumentRejectedError('TOO_COMPLEX', `decoded streams: ${outcome.reason}`);
  }
  judgeQpdf(outcome);
  const decodedPath = path.join(dir, 'decoded.pdf');
  checkInlineImages(await readFile(decodedPath));
  await rm(decodedPath, { force: true });
}

function checkInflatedSize(bytes: Uint8Array) {
  const inflated = measureInflatedBytes(bytes, DOCUMENT_LIMITS.maxPdfInflatedBytes);
  if (inflated > DOCUMENT_LIMITS.maxPdfInflatedBytes) {
    throw new DocumentRejectedError('TOO_COMPLEX', `streams inflate past ${inflated} bytes`);
  }
}

async function rewrite(
  dir: string,
  input: string,
  output: string,
  args: readonly string[],
  streams: readonly string[] = PRESERVE_STREAMS,
) {
  judgeQpdf(await runQpdf([...args, ...streams, input, output], dir));
}

/** Whatever qpdf could not do with the bytes is the document's problem, never a retry. */
function judgeQpdf(outcome: QpdfOutcome) {
  if (outcome.kind === 'limit') {
    throw new DocumentRejectedError('TOO_COMPLEX', `qpdf stopped: ${outcome.reason}`);
  }
  if (QPDF_OK.has(outcome.code)) return;
  if (/invalid password/i.test(outcome.stderr)) throw new DocumentRejectedError('PDF_ENCRYPTED');
  // Certificate (public-key) security, or a handler qpdf does not know: nobody without the key
  // opens it, so the applicant must remove the protection as for a password.
  if (/unsupported encryption filter/i.test(outcome.stderr)) {
    throw new DocumentRejectedError('PDF_ENCRYPTED', 'unsupported security handler');
  }
  throw new DocumentRejectedError('UNREADABLE', `qpdf: ${outcome.stderr.trim().slice(0, 300)}`);
}

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  return asDocumentProblem(() => PDFDocument.load(bytes, { updateMetadata: false }));
}

async function readDocument(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await loadPdf(bytes);
  return asDocumentProblem(async () => {
    checkPageTree(doc);
    checkPageContents(doc);
    hideOptionalContent(doc);
    return saveInertCopy(doc);
  });
}

/** A parser exception is about these bytes: it would fail the same way on every retry. */
async function asDocumentProblem<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDocumentRejected(error)) throw error;
    throw new DocumentRejectedError('UNREADABLE', `pdf-lib: ${(error as Error).message}`);
  }
}
