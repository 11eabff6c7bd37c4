// docx → PDF through a warm LibreOffice (after the zip checks), with the named import filter.
import { checkDocx } from './check-docx';
import { DocumentRejectedError } from './conversion-errors';
import { OfficeDocumentError, OfficeTimeoutError } from './libreoffice/office-process';
import type { OfficePool } from './libreoffice/office-pool';

export const DOCX_IMPORT_FILTER = 'MS Word 2007 XML';

export async function convertDocx(bytes: Uint8Array, pool: OfficePool): Promise<Uint8Array> {
  checkDocx(bytes);
  return convertCheckedDocx(bytes, pool);
}

/** The LibreOffice half, for a docx whose checks already ran (in a sandbox child). */
export async function convertCheckedDocx(bytes: Uint8Array, pool: OfficePool): Promise<Uint8Array> {
  try {
    return await pool.convert(bytes, DOCX_IMPORT_FILTER);
  } catch (error) {
    if (error instanceof OfficeTimeoutError) {
      throw new DocumentRejectedError('TOO_COMPLEX', error.message);
    }
    if (error instanceof OfficeDocumentError) {
      throw new DocumentRejectedError('UNREADABLE', error.message);
    }
    // A crash or a pool that is not running: an infrastructure failure, retried by the job.
    throw error;
  }
}
