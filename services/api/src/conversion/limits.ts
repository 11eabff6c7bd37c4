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
