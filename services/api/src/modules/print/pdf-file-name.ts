// lastname_firstname_<application id>.pdf, safe in any header and on any file system, and the
// one way a route sends an application PDF as that download (the applicant's and the staff's).
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** Letters and digits of the name only, accents removed; '' when nothing ASCII is left. */
function asciiPart(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/[^A-Za-z0-9]+/g, '')
    .toLowerCase()
    .slice(0, 40);
}

function unicodePart(value: string): string {
  return value
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .toLocaleLowerCase('en-US')
    .slice(0, 40);
}

export interface PdfFileName {
  /** ASCII only: the `filename` parameter every client understands. */
  ascii: string;
  /** The name as written (letters and digits of any script), for `filename*`. */
  unicode: string;
}

/** The answers a file name is made of: plain answers, never sealed ones (read without decrypting). */
export const PDF_NAME_KEYS = ['last_name', 'first_name'] as const;

export function pdfFileName(answers: Record<string, string>, applicationId: string): PdfFileName {
  const last = answers.last_name ?? '';
  const first = answers.first_name ?? '';
  const build = (part: (v: string) => string) =>
    [part(last), part(first), applicationId].filter((p) => p !== '').join('_') + '.pdf';
  return { ascii: build(asciiPart), unicode: build(unicodePart) };
}

/** RFC 6266: `attachment; filename="…"; filename*=UTF-8''…` (the latter only when it differs). */
export function attachmentDisposition(name: PdfFileName): string {
  const header = `attachment; filename="${name.ascii}"`;
  if (name.unicode === name.ascii) return header;
  const encoded = encodeURIComponent(name.unicode).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${header}; filename*=UTF-8''${encoded}`;
}

/** OpenAPI description of the 200 answer of a route that sends an application PDF. */
export const PdfAttachmentResponse = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: 'The PDF, as an attachment named lastname_firstname_applicationid.pdf',
});

export function sendPdfAttachment(
  reply: FastifyReply,
  bytes: Uint8Array,
  answers: Record<string, string>,
  applicationId: string,
) {
  return reply
    .type('application/pdf')
    .header('content-disposition', attachmentDisposition(pdfFileName(answers, applicationId)))
    .send(Buffer.from(bytes));
}
