import { Type, type Static } from '@sinclair/typebox';

/** SPEC §3 PDF statuses, as GET /api/pdf/document-answer/{key} reports them. */
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
    // Longer names are accepted here so the conversion can fail with the SPEC §5 message.
    file_name: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);
export type StartConversionBody = Static<typeof StartConversionBody>;

export const ConversionStatusResponse = Type.Object(
  {
    status: Type.Union(CONVERSION_STATUSES.map((s) => Type.Literal(s))),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type ConversionStatusResponse = Static<typeof ConversionStatusResponse>;

export const DocumentAnswersResponse = Type.Record(
  Type.String(),
  Type.Object(
    { file_name: Type.String(), file_size: Type.Integer() },
    { additionalProperties: false },
  ),
);
export type DocumentAnswersResponse = Static<typeof DocumentAnswersResponse>;

/** Server messages of the document flow (the SPEC §5 file messages live in @admissions/form). */
export const DOCUMENT_MESSAGES = {
  converting: 'Your file is being converted.',
  waiting: 'Your file is waiting to be converted.',
  completed: 'Your file was uploaded.',
  notAnswered: 'No file has been uploaded for this question.',
  deleted: 'Your file was deleted.',
  pdfEncrypted: 'Your PDF is password-protected. Please upload a PDF without a password.',
  unreadable:
    'We could not read your file. Please check that it opens on your computer and upload it again.',
  unsafeContent:
    'Your document contains macros, embedded objects or links to other files, which we cannot accept. Please save it as a plain .docx or .pdf and upload it again.',
  tooComplex:
    'Your document is too large or complex to convert. Please simplify it or upload it as a PDF.',
  conversionUnavailable:
    "We couldn't convert your file right now. Please try uploading it again in a few minutes.",
  uploadMissing: 'We did not receive your file. Please upload it again.',
  notAFileQuestion: 'This question does not take a file upload.',
  conversionInProgress: 'Please wait until the file upload has completed.',
  uploadRefused: 'This upload link is not valid. Please request a new one.',
  uploadExpired: 'This upload link has expired. Please try again.',
} as const;
