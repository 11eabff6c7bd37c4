// docx → PDF: the package rewrite (check-docx.ts), then a warm LibreOffice with the named import
// filter; a document that crashes LibreOffice gets a second warm process, then a one-shot
// sandboxed soffice, before it is called a failure (the document's, never "try again later").
import type { Logger } from 'pino';
import { rewriteDocx } from './check-docx';
import { DocumentRejectedError } from './conversion-errors';
import { DOCUMENT_LIMITS } from './limits';
import {
  OfficeCrashedError,
  OfficeDocumentError,
  OfficeTimeoutError,
} from './libreoffice/office-process';
import type { OfficePool } from './libreoffice/office-pool';

export const DOCX_IMPORT_FILTER = 'MS Word 2007 XML';

/** Warm attempts before the one-shot process (the pool replaces a crashed process at once). */
const WARM_ATTEMPTS = 2;

/**
 * A converted document has at most DOCUMENT_LIMITS.maxPages pages; throws TOO_MANY_PAGES (or
 * UNREADABLE for a PDF that does not parse). Pure: the sandbox runs it on LibreOffice's output.
 */
export async function checkConvertedPageCount(pdf: Uint8Array): Promise<number> {
  let pages: number;
  try {
    // Only the sandbox child runs this; the server, which imports this file, never loads pdf-lib.
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: true });
    pages = doc.getPageCount();
  } catch (error) {
    throw new DocumentRejectedError('UNREADABLE', `converted PDF: ${String(error).slice(0, 200)}`);
  }
  if (pages > DOCUMENT_LIMITS.maxPages) {
    throw new DocumentRejectedError('TOO_MANY_PAGES', `${pages} pages`);
  }
  return pages;
}

function rejectionFor(error: unknown): DocumentRejectedError | undefined {
  if (error instanceof OfficeTimeoutError) {
    return new DocumentRejectedError('TOO_COMPLEX', error.message);
  }
  if (error instanceof OfficeDocumentError) {
    return new DocumentRejectedError('UNREADABLE', error.message);
  }
  return undefined;
}

/**
 * Converts a checked package. A crash of a warm process is retried once in a fresh one, then in
 * a one-shot process; a document that crashes all three is refused as CONVERSION_FAILED.
 * OfficeUnavailableError (no LibreOffice at all) and other errors propagate: those are the
 * service's failures, retried by the job.
 */
export async function convertCheckedDocx(
  pkg: Uint8Array,
  pool: OfficePool,
  logger?: Logger,
): Promise<Uint8Array> {
  for (let attempt = 1; attempt <= WARM_ATTEMPTS; attempt++) {
    try {
      return await pool.convert(pkg, DOCX_IMPORT_FILTER);
    } catch (error) {
      const rejection = rejectionFor(error);
      if (rejection) throw rejection;
      if (!(error instanceof OfficeCrashedError)) throw error;
      logger?.warn({ err: error, attempt }, 'LibreOffice crashed on a document');
    }
  }
  try {
    return await pool.convertOneShot(pkg, DOCX_IMPORT_FILTER);
  } catch (error) {
    const rejection = rejectionFor(error);
    if (rejection) throw rejection;
    if (error instanceof OfficeCrashedError) {
      throw new DocumentRejectedError('CONVERSION_FAILED', error.message);
    }
    throw error;
  }
}

/**
 * The converted document with `notes` (what the rewrite left out, DOCX_NOTES) written in small
 * type across the top margin of its first page, where staff read it before the document; the
 * document's own pages, and so its page count, are unchanged, and a tagged document stays tagged
 * (the notes are its first paragraph). Pure: the sandbox runs it.
 */
export async function stampConversionNotes(pdf: Uint8Array, notes: string[]): Promise<Uint8Array> {
  if (notes.length === 0) return pdf;
  const { stampNotes } = await import('@admissions/answer-view/pdf-stamp');
  return stampNotes(pdf, notes);
}

export async function convertDocx(
  bytes: Uint8Array,
  pool: OfficePool,
  logger?: Logger,
): Promise<Uint8Array> {
  const { pkg, notes } = rewriteDocx(bytes);
  const pdf = await convertCheckedDocx(pkg, pool, logger);
  await checkConvertedPageCount(pdf);
  return stampConversionNotes(pdf, notes);
}
