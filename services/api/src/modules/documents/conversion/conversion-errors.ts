import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { MESSAGES as FORM_MESSAGES } from '@admissions/form';

export type RejectionCode =
  | 'FILE_TYPE'
  | 'FILE_EMPTY'
  | 'FILE_TOO_LARGE'
  | 'FILE_NAME_TOO_LONG'
  | 'PDF_ENCRYPTED'
  | 'DOCX_ENCRYPTED'
  | 'UNREADABLE'
  | 'UNSAFE_CONTENT'
  | 'TOO_COMPLEX'
  | 'TOO_MANY_PAGES'
  | 'IMAGE_TOO_LARGE'
  | 'CONVERSION_FAILED';

const MESSAGE_BY_CODE: Record<RejectionCode, string> = {
  FILE_TYPE: FORM_MESSAGES.fileType,
  FILE_EMPTY: FORM_MESSAGES.fileEmpty,
  FILE_TOO_LARGE: FORM_MESSAGES.fileTooLarge,
  FILE_NAME_TOO_LONG: FORM_MESSAGES.fileNameTooLong,
  PDF_ENCRYPTED: DOCUMENT_MESSAGES.pdfEncrypted,
  DOCX_ENCRYPTED: DOCUMENT_MESSAGES.docxEncrypted,
  UNREADABLE: DOCUMENT_MESSAGES.unreadable,
  UNSAFE_CONTENT: DOCUMENT_MESSAGES.unsafeContent,
  TOO_COMPLEX: DOCUMENT_MESSAGES.tooComplex,
  TOO_MANY_PAGES: DOCUMENT_MESSAGES.tooManyPages,
  IMAGE_TOO_LARGE: DOCUMENT_MESSAGES.imageTooLarge,
  CONVERSION_FAILED: DOCUMENT_MESSAGES.conversionFailed,
};

/**
 * The document itself is the problem: the job ends FAILED with a message the applicant can act
 * on, and is not retried. `detail` is for the log only (it never reaches the applicant).
 */
export class DocumentRejectedError extends Error {
  readonly userMessage: string;
  constructor(
    readonly code: RejectionCode,
    readonly detail?: string,
  ) {
    super(`${code}${detail ? `: ${detail}` : ''}`);
    this.name = 'DocumentRejectedError';
    this.userMessage = MESSAGE_BY_CODE[code];
  }
}

export function isDocumentRejected(error: unknown): error is DocumentRejectedError {
  return error instanceof DocumentRejectedError;
}

/**
 * The service could not convert, whatever the document: a converter pool that is not running
 * (closed, or cannot start its processes). Retried, then "try again in a few minutes"; any other
 * error that repeats on the same bytes is the document's (CONVERSION_FAILED).
 */
export class ConverterUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConverterUnavailableError';
  }
}
