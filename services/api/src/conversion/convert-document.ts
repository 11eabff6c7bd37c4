// The dispatcher: checks what every upload must satisfy, detects the type by content and hands
// the bytes to that type's converter (one file each).
import { MAX_FILE_NAME_LENGTH, MAX_FILE_SIZE_BYTES } from '@admissions/form';
import type { Logger } from 'pino';
import { DocumentRejectedError, isDocumentRejected } from './conversion-errors';
import { convertDocx } from './convert-docx';
import { convertJpeg, convertPng } from './convert-image';
import { convertPdf } from './convert-pdf';
import { detectFileType, type DocumentType } from './detect-file-type';
import type { OfficePool } from './libreoffice/office-pool';

export interface ConvertedDocument {
  type: DocumentType;
  pdf: Uint8Array;
}

export interface ConvertRequest {
  bytes: Uint8Array;
  fileName: string;
}

/** The checks that need no parsing, in the order the SPA shows them (SPEC §5). */
export function checkUpload({ bytes, fileName }: ConvertRequest): DocumentType {
  if ([...fileName].length > MAX_FILE_NAME_LENGTH) {
    throw new DocumentRejectedError('FILE_NAME_TOO_LONG');
  }
  if (bytes.length === 0) throw new DocumentRejectedError('FILE_EMPTY');
  if (bytes.length > MAX_FILE_SIZE_BYTES) throw new DocumentRejectedError('FILE_TOO_LARGE');
  const type = detectFileType(bytes);
  if (!type) throw new DocumentRejectedError('FILE_TYPE', 'unrecognised content');
  return type;
}

export function createDocumentConverter(deps: { pool: OfficePool; logger: Logger }) {
  const { pool, logger } = deps;
  const converters: Record<DocumentType, (bytes: Uint8Array) => Promise<Uint8Array>> = {
    docx: (bytes) => convertDocx(bytes, pool, logger),
    jpeg: convertJpeg,
    png: convertPng,
    pdf: convertPdf,
  };
  return {
    async convert(request: ConvertRequest): Promise<ConvertedDocument> {
      const started = performance.now();
      let type: DocumentType | undefined;
      try {
        type = checkUpload(request);
        const pdf = await converters[type](request.bytes);
        logger.info(
          { type, bytes: request.bytes.length, ms: Math.round(performance.now() - started) },
          'document converted',
        );
        return { type, pdf };
      } catch (error) {
        const ms = Math.round(performance.now() - started);
        if (isDocumentRejected(error)) {
          logger.info({ type, code: error.code, detail: error.detail, ms }, 'document rejected');
        } else {
          logger.warn({ type, err: error, ms }, 'conversion failed');
        }
        throw error;
      }
    },
  };
}

export type DocumentConverter = ReturnType<typeof createDocumentConverter>;
