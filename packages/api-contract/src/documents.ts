import { Type, type Static } from '@sinclair/typebox';
import { DocumentAnswer } from './profile';

/** docs/data-model.md PDF statuses, as GET /api/pdf/document-answer/{key} reports them. */
export const CONVERSION_STATUSES = [
  'COMPLETED',
  'FAILED',
  'IN_PROGRESS',
  'UNPROCESSED',
  'NOT_ANSWERED',
] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

const FileQuestionKey = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9_]+_doc$',
  description: 'A file question of the application (its key ends in _doc)',
});

export const PresignedUrlBody = Type.Object(
  { answer_key: FileQuestionKey },
  { additionalProperties: false },
);
export type PresignedUrlBody = Static<typeof PresignedUrlBody>;

/** POST the file plus these fields (in this order, file last) as multipart/form-data to `url`. */
export const PresignedUrlResponse = Type.Object(
  {
    url: Type.String(),
    fields: Type.Record(Type.String(), Type.String(), {
      description: 'Form fields to send before the file, including `key`',
    }),
  },
  { additionalProperties: false },
);
export type PresignedUrlResponse = Static<typeof PresignedUrlResponse>;

export const DocumentKeyParams = Type.Object(
  { key: FileQuestionKey },
  { additionalProperties: false },
);
export type DocumentKeyParams = Static<typeof DocumentKeyParams>;

export const StartConversionBody = Type.Object(
  {
    file_key: Type.String({ minLength: 1, maxLength: 300 }),
    // Longer names are accepted here so the conversion can fail with the docs/validation.md message.
    file_name: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);
export type StartConversionBody = Static<typeof StartConversionBody>;

export const ConversionStatusResponse = Type.Object(
  {
    status: Type.Union(CONVERSION_STATUSES.map((s) => Type.Literal(s))),
    message: Type.String(),
    // The applicant's proof of a COMPLETED conversion, beside the status and message: absent for
    // the other statuses and for a document converted before previews existed.
    page_count: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Pages of the converted PDF (COMPLETED only)' }),
    ),
    thumbnail_url: Type.Optional(
      Type.String({
        description:
          "Same-origin link to a PNG of the converted PDF's first page, for the owner's session only (COMPLETED only)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConversionStatusResponse = Static<typeof ConversionStatusResponse>;

/** `v` names the thumbnail's version, so a new upload's picture is never an old one's. */
export const DocumentThumbnailQuery = Type.Object(
  { v: Type.Optional(Type.String({ maxLength: 64, pattern: '^[0-9a-f]+$' })) },
  { additionalProperties: false },
);
export type DocumentThumbnailQuery = Static<typeof DocumentThumbnailQuery>;

/** Width in pixels of a document's first-page thumbnail (a very tall page is drawn narrower). */
export const DOCUMENT_THUMBNAIL_WIDTH = 200;

export const DocumentAnswersResponse = Type.Record(Type.String(), DocumentAnswer);
export type DocumentAnswersResponse = Static<typeof DocumentAnswersResponse>;

/** Most pages an uploaded document may have (statements and transcripts fit easily). */
export const MAX_DOCUMENT_PAGES = 50;
/** Most decoded pixels of one image (a PNG or JPEG upload, or an image inside a PDF), in millions. */
export const MAX_IMAGE_MEGAPIXELS = 25;
/** Longest side of a PDF page, in inches (PDF's own limit is 200). */
export const MAX_PAGE_SIDE_INCHES = 200;

/** Server messages of the document flow (the docs/validation.md file messages live in @admissions/form). */
export const DOCUMENT_MESSAGES = {
  converting: 'Your file is being converted.',
  waiting: 'Your file is waiting to be converted.',
  completed: 'Your file was uploaded.',
  notAnswered: 'No file has been uploaded for this question.',
  deleted: 'Your file was deleted.',
  noPreview: 'There is no preview of a converted file for this question.',
  pdfEncrypted: 'Your PDF is password-protected. Please upload a PDF without a password.',
  docxEncrypted:
    'Your Word document is password-protected. Please remove the password in Word (File > Info > Protect Document) and upload it again.',
  unreadable:
    'Your file appears to be damaged and we could not read it. Please check that it opens on your computer, save it again and upload it.',
  unsafeContent:
    'Your document contains macros or other active content, which we cannot accept. Please save it as a plain Word document (.docx) or a PDF and upload it again.',
  tooComplex:
    'Your document is too large or complex to convert. Please simplify it or upload it as a PDF.',
  tooManyPages: `Your document has more than ${MAX_DOCUMENT_PAGES} pages. Please upload a shorter document.`,
  imageTooLarge: `Your image is too large to convert (at most ${MAX_IMAGE_MEGAPIXELS} megapixels and ${MAX_PAGE_SIDE_INCHES} inches a side). Please resize it and upload it again.`,
  conversionFailed:
    'We could not convert your document. Please save it as a PDF on your computer and upload that instead.',
  tooManyUploads:
    'You have too many uploads in progress. Please wait until your other files have finished converting and try again.',
  conversionUnavailable:
    "We couldn't convert your file right now. Please try uploading it again in a few minutes.",
  uploadMissing: 'We did not receive your file. Please upload it again.',
  notAFileQuestion: 'This question does not take a file upload.',
  conversionInProgress: 'Please wait until the file upload has completed.',
  uploadRefused: 'This upload link is not valid. Please request a new one.',
  uploadUsed: 'This upload link has already been used. Please request a new one.',
  uploadReleased:
    'This upload link is no longer valid: a newer one replaced it, or its file was refused. Please upload your file again.',
  uploadExpired: 'This upload link has expired. Please try again.',
} as const;

/** 409 from POST /api/submit while a file of the application is still converting. */
export function formatSubmitWhileConverting(questionLabel: string): string {
  return `Your file for "${questionLabel}" is still being converted. Please wait until it has finished, then submit again.`;
}
