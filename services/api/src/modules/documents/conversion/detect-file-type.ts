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

/** The type by magic bytes, or null for anything we do not accept. */
export function detectFileType(bytes: Uint8Array): DocumentType | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  // PDF readers tolerate a little junk before the header; we do not.
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
  return null;
}
