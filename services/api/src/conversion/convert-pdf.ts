// pdf → checked and passed through: it must parse and must not be encrypted.
import { EncryptedPDFError, PDFDocument } from 'pdf-lib';
import { DocumentRejectedError } from './conversion-errors';

// An encryption dictionary is referenced from the trailer or the cross-reference stream, both
// uncompressed; pdf-lib cannot parse some encrypted files at all, so look for it first.
const ENCRYPT_KEY = Buffer.from('/Encrypt');

export async function convertPdf(bytes: Uint8Array): Promise<Uint8Array> {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPT_KEY)) {
    throw new DocumentRejectedError('PDF_ENCRYPTED');
  }
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(new Uint8Array(bytes), { updateMetadata: false });
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw new DocumentRejectedError('PDF_ENCRYPTED');
    throw new DocumentRejectedError('UNREADABLE', 'PDF does not parse');
  }
  // pdf-lib only notices an /Encrypt entry in the trailer; check it explicitly too.
  if (doc.isEncrypted) throw new DocumentRejectedError('PDF_ENCRYPTED');
  if (doc.getPageCount() === 0) throw new DocumentRejectedError('UNREADABLE', 'PDF without pages');
  return bytes;
}
