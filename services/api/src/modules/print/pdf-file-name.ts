// The one way a route sends an application PDF as a download (the applicant's and the staff's),
// named by `applicationPdfFileName` — the name the batch export gives the same application.
import type { FastifyReply } from 'fastify';
import { APPLICANT_NAME_KEYS } from '@admissions/form';

/**
 * `attachment; filename="…"`. The name is ASCII letters, digits, `-`, `_` and `.` only, so it
 * needs no escaping, and no `filename*` is sent: a browser would prefer it and save the file under
 * another name than the export's.
 */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName}"`;
}

/** The answers a file name is made of: plain answers, never sealed ones (read without decrypting). */
export const PDF_NAME_KEYS = [APPLICANT_NAME_KEYS.last, APPLICANT_NAME_KEYS.first] as const;

export async function sendPdfAttachment(
  reply: FastifyReply,
  bytes: Uint8Array,
  answers: Record<string, string>,
  applicationId: string,
) {
  // Loaded at the first download, not with the module: the namer's transliteration table is
  // ~0.5 MB that V8 would otherwise parse at every start of the server.
  const { applicationPdfFileName } = await import('@admissions/answer-view/file-name');
  const fileName = applicationPdfFileName(answers, applicationId);
  return reply
    .type('application/pdf')
    .header('content-disposition', attachmentDisposition(fileName))
    .send(Buffer.from(bytes));
}
