// What a file is, from its first bytes (docs/design-decisions.md, 10: by content, never by name).
import { looksLikeTruncatedDocx } from './check-docx';
import { isEncryptedOfficePackage } from './compound-file';
import { listZipEntries } from './zip-entries';

export type DocumentType = 'pdf' | 'png' | 'jpeg' | 'docx';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04];
/**
 * Readers find the header anywhere in the first kilobyte (a mail gateway's or a scanner's bytes in
 * front of it); the PDF itself is found at that offset by qpdf.
 */
const PDF_HEADER_WINDOW = 1024;
/** Stray bytes looked past between a JPEG's SOI and its first marker. */
const JPEG_STRAY_WINDOW = 64;

/** The type by magic bytes, or null for anything we do not accept. */
export function detectFileType(bytes: Uint8Array): DocumentType | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, PDF)) return 'pdf';
  if (startsWith(bytes, ZIP)) {
    // A docx is a zip with a Word main part; an .xlsx or a plain zip is not.
    const entries = listZipEntries(bytes);
    // A Word document cut short (no central directory) is a damaged docx, not another type.
    if (!entries) return looksLikeTruncatedDocx(bytes) ? 'docx' : null;
    const names = new Set(entries.map((e) => e.name));
    if (names.has('[Content_Types].xml') && names.has('word/document.xml')) return 'docx';
  }
  // A password-protected docx is an OLE compound file (EncryptionInfo + EncryptedPackage);
  // checkDocx refuses it with its own message. An old binary .doc is not accepted.
  if (isEncryptedOfficePackage(bytes)) return 'docx';
  // Last, so a file of another type (a zip holding a PDF, say) is never taken for one.
  if (!startsWith(bytes, ZIP) && hasPdfHeaderNearStart(bytes)) return 'pdf';
  if (hasJpegMarkerAfterStrayBytes(bytes)) return 'jpeg';
  return null;
}

/**
 * SOI, then a few stray bytes before the first marker: libjpeg skips them with a warning, so
 * viewers show the photo.
 */
function hasJpegMarkerAfterStrayBytes(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
  const head = bytes.subarray(2, 2 + JPEG_STRAY_WINDOW);
  const at = head.indexOf(0xff);
  return at !== -1 && (head[at + 1] ?? 0) >= 0xc0 && head[at + 1] !== 0xff;
}

function hasPdfHeaderNearStart(bytes: Uint8Array): boolean {
  const window = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(
    0,
    PDF_HEADER_WINDOW + PDF.length,
  );
  const at = window.indexOf(Buffer.from(PDF));
  return at !== -1 && at <= PDF_HEADER_WINDOW;
}
