// Every bound an uploaded document is held to, in one place. The applicant-facing numbers
// (pages, megapixels, page side) live in @admissions/api-contract because the messages quote them.
import {
  MAX_DOCUMENT_PAGES,
  MAX_IMAGE_MEGAPIXELS,
  MAX_PAGE_SIDE_INCHES,
} from '@admissions/api-contract';

export const DOCUMENT_LIMITS = {
  /** Pages of a PDF (uploaded, or produced from a docx). */
  maxPages: MAX_DOCUMENT_PAGES,
  /** Page-tree nodes visited while counting pages (a tree that points at one page 40,000 times). */
  maxPageTreeNodes: 4 * MAX_DOCUMENT_PAGES + 64,
  /** Decoded pixels of one image, in a PNG/JPEG upload or inside a PDF. */
  maxImagePixels: MAX_IMAGE_MEGAPIXELS * 1_000_000,
  /** Longest page side in PDF points (72 a inch). */
  maxPageSidePoints: MAX_PAGE_SIDE_INCHES * 72,
  /** Bytes all of a PDF's streams may inflate to, together (an object-stream bomb inflates to ~900 MB). */
  maxPdfInflatedBytes: 64 * 1024 * 1024,
  /**
   * Bytes of a PDF once rewritten with every object uncompressed (object streams unpacked), which
   * pdf-lib then parses whole, slowly and in memory (figures in BENCHMARKS.md), so the objects an object stream holds are bounded far below the inflate budget.
   */
  maxPdfPlainBytes: 4 * 1024 * 1024,
} as const;

/**
 * The structure of a docx, checked before LibreOffice sees it: a 1,259-byte file of 2,000 nested
 * tables held a LibreOffice process for the whole time-out. Word's own documents stay far below
 * these (a 50-page statement has a few thousand paragraphs, tables nest a few levels at most).
 */
export const DOCX_STRUCTURE_LIMITS = {
  /** Element nesting depth in any XML part (each nested table adds three levels). */
  maxElementDepth: 256,
  /** Tables in all parts together. */
  maxTables: 1000,
  /** Tables inside tables. */
  maxTableNesting: 12,
  /** Paragraphs in all parts together. */
  maxParagraphs: 50_000,
  /**
   * Runs in one paragraph: LibreOffice's cost grows with the square of them (measured on the warm
   * pool: 2,000 0.6 s, 5,000 1.1 s, 10,000 4.7 s, 30,000 past the 20 s time-out, from a 4.7 KB
   * file); Word splits a paragraph into a few hundred at most.
   */
  maxRunsPerParagraph: 1000,
  /**
   * Runs in all parts together, a loose bound: spread over paragraphs runs cost little; many runs of
   * words take long, but that is the text's volume (over 100 pages), which only the time-out and the page limit bound.
   */
  maxRuns: 50_000,
  /** Uncompressed bytes of all XML parts together. */
  maxXmlBytes: 16 * 1024 * 1024,
} as const;

/**
 * What one applicant may have in flight at once: issued upload links not yet turned into a
 * conversion, plus conversions still pending. A link whose size is not known yet (not uploaded,
 * or S3, which does not tell us) counts at the most it may carry.
 */
export const UPLOAD_LIMITS = {
  maxPendingUploads: 3,
  maxBytesInFlight: 5 * 1024 * 1024,
} as const;
