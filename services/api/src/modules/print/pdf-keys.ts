// Where generated application PDFs live in storage: the print module's own prefix.
import { randomBytes } from 'node:crypto';

export const APPLICATION_PDF_PREFIX = 'applications/';

/** A generated application PDF (`audience` is applicant, service or export). */
export function createApplicationPdfKey(applicationId: string, audience: string): string {
  return `${APPLICATION_PDF_PREFIX}${applicationId}/${audience}/${randomBytes(18).toString('base64url')}.pdf`;
}
