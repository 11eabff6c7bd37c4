// Every `code` an error body carries, with its HTTP status: the server's AppError takes a code
// from this table (the status comes with it), docs/api.md "Error codes" lists it, and each
// endpoint of ENDPOINTS names the codes it can answer with.
import { MESSAGES } from './messages';
import { DOCUMENT_MESSAGES } from './documents';
import { LOOKUP_MESSAGES } from './lookup';
import { SERVICE_MESSAGES } from './service';
import { STAFF_EXPORT_MESSAGES, STAFF_MESSAGES } from './staff';
import { CHECKLIST_MESSAGES } from './checklist';

export type ErrorStatus =
  400 | 401 | 403 | 404 | 408 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 503;

export interface ErrorCodeEntry {
  readonly status: ErrorStatus;
  /** The message when the code always says the same thing; the call gives it otherwise. */
  readonly message?: string;
  /**
   * Other statuses the same code is answered with, kept because outside clients see them: the
   * S3-style upload refuses a used link with 403 as S3 would, and Fastify's own refusal of a body
   * (too large, wrong media type) keeps its status.
   */
  readonly otherStatuses?: readonly ErrorStatus[];
  /** What it means, for docs/api.md. */
  readonly meaning: string;
}

export const ERROR_CODES = {
  ACCOUNT_LOCKED: {
    status: 429,
    message: MESSAGES.accountLocked,
    meaning: 'Too many failed sign-ins for this address; Retry-After says when to try again',
  },
  ROUND_CLOSED: {
    status: 409,
    meaning:
      "The application's round is past its deadline and grace period; the message names the round and its deadline",
  },
  ROUND_NOT_OPEN: {
    status: 409,
    meaning: 'The round opens later; the message says when',
  },
  ROUND_NOT_FOUND: {
    status: 404,
    meaning: 'No admission round has this code',
  },
  ALREADY_SUBMITTED: {
    status: 409,
    message: MESSAGES.alreadySubmitted,
    meaning: 'The application is submitted and can no longer change',
  },
  API_KEY_INVALID: {
    status: 401,
    message: STAFF_MESSAGES.apiKeyInvalid,
    meaning: 'The campus API key is missing, invalid or revoked',
  },
  API_KEY_SCOPE: {
    status: 403,
    message: STAFF_MESSAGES.apiKeyScope,
    meaning: "The API key's scope does not allow the call",
  },
  CODE_REJECTED: {
    status: 400,
    message: MESSAGES.codeRejected,
    meaning: 'Wrong or expired confirmation code',
  },
  CHECKLIST_FILE_REFUSED: {
    status: 400,
    meaning:
      'A letter or requested item is missing, too long, not a PDF or Word file, or over 1 MB; the message says which',
  },
  CHECKLIST_ITEM_CLOSED: {
    status: 409,
    meaning:
      'The checklist item takes no upload from the applicant, or is already received or waived; the message says which',
  },
  EXTERNAL_ID_TAKEN: {
    status: 409,
    meaning: 'Another application already has this student system ID; the message names it',
  },
  FERPA_UNANSWERED: {
    status: 409,
    message: CHECKLIST_MESSAGES.ferpaUnanswered,
    meaning: 'A recommender is invited before the FERPA release question is answered',
  },
  RECOMMENDATION_LINK_EXPIRED: {
    status: 410,
    message: CHECKLIST_MESSAGES.linkExpired,
    meaning: "The recommender's link is older than 60 days",
  },
  RECOMMENDATION_LINK_INVALID: {
    status: 403,
    message: CHECKLIST_MESSAGES.linkInvalid,
    meaning:
      'No live recommender has this link: never issued, replaced by a change of e-mail, or the recommender was removed',
  },
  RECOMMENDATION_SUBMITTED: {
    status: 409,
    message: CHECKLIST_MESSAGES.alreadySubmitted,
    meaning: 'A letter was already submitted (or is being converted) through this link',
  },
  RECOMMENDER_LIMIT: {
    status: 409,
    message: CHECKLIST_MESSAGES.recommenderLimit,
    meaning: 'The applicant already invited the most recommenders of this type',
  },
  RECOMMENDER_LOCKED: {
    status: 409,
    message: CHECKLIST_MESSAGES.recommenderLocked,
    meaning: 'A recommender whose letter was received is changed, removed or reminded',
  },
  REMINDER_TOO_SOON: {
    status: 429,
    message: CHECKLIST_MESSAGES.reminderTooSoon,
    meaning: 'The applicant already reminded this recommender in the last 24 hours',
  },
  CONVERSION_IN_PROGRESS: {
    status: 409,
    message: DOCUMENT_MESSAGES.conversionInProgress,
    meaning: 'A conversion of this file question is still running',
  },
  CONVERSION_PENDING: {
    status: 409,
    meaning: 'Submit while a file of the application is still converting (names the question)',
  },
  CROSS_SITE: { status: 403, meaning: 'A state change another site asked for' },
  EXPORT_EXPIRED: {
    status: 410,
    message: STAFF_EXPORT_MESSAGES.expired,
    meaning: 'The export file was deleted after its retention',
  },
  EXPORT_NOT_READY: {
    status: 409,
    message: STAFF_EXPORT_MESSAGES.notReady,
    meaning: 'The export has not finished',
  },
  EXPORT_RUNNING: {
    status: 409,
    message: STAFF_EXPORT_MESSAGES.busy,
    meaning: 'Another export of this exporter is running',
  },
  EXPORT_UNAUDITED: {
    status: 410,
    message: STAFF_EXPORT_MESSAGES.unaudited,
    meaning: 'An export made before downloads were recorded',
  },
  INTERNAL: {
    status: 500,
    message: MESSAGES.unexpected,
    meaning: 'Anything unexpected (logged on the server, never described)',
  },
  INVALID_ANSWER: {
    status: 400,
    meaning: 'An answer key that is no question, or an answer over its limits',
  },
  INVALID_REQUEST: {
    status: 400,
    otherStatuses: [413, 415],
    meaning: 'The request breaks its schema or is not readable JSON (413 too large, 415 not JSON)',
  },
  LINK_EXPIRED: {
    status: 403,
    message: SERVICE_MESSAGES.linkExpired,
    meaning: 'The PDF download link has expired',
  },
  LINK_INVALID: {
    status: 403,
    message: SERVICE_MESSAGES.linkInvalid,
    meaning: "The PDF download link is forged or another applicant's",
  },
  LOGIN_FAILED: { status: 401, meaning: 'Wrong e-mail address or password' },
  MISSING_INFORMATION: {
    status: 422,
    message: MESSAGES.missingInformation,
    meaning: 'Submit refused: `errors` maps each question to its messages',
  },
  NOT_A_FILE_QUESTION: {
    status: 400,
    message: DOCUMENT_MESSAGES.notAFileQuestion,
    meaning: 'The key is not a file question',
  },
  NOT_CONFIRMED: {
    status: 403,
    message: MESSAGES.notConfirmed,
    meaning: 'Right password, account not confirmed yet',
  },
  NOT_FOUND: { status: 404, meaning: 'No such record, or no such page' },
  NOT_MULTIPART: {
    status: 400,
    message: DOCUMENT_MESSAGES.uploadRefused,
    meaning: 'An upload that is not multipart/form-data',
  },
  NO_APPLICATION: { status: 409, meaning: 'The applicant has no application row' },
  OIDC_NOT_CONFIGURED: {
    status: 404,
    message: STAFF_MESSAGES.oidcNotConfigured,
    meaning: 'No identity provider is configured',
  },
  OIDC_UNAVAILABLE: {
    status: 503,
    message: STAFF_MESSAGES.oidcFailed,
    meaning: 'The identity provider cannot be reached',
  },
  OVERLOADED: {
    status: 503,
    message: MESSAGES.unavailable,
    meaning: 'Load shedding: too much work queued; Retry-After',
  },
  PASSWORD_TOO_COMMON: {
    status: 400,
    message: MESSAGES.passwordTooCommon,
    meaning: 'The password is on the common-passwords list',
  },
  PDF_STALE: {
    status: 404,
    message: SERVICE_MESSAGES.linkStale,
    meaning: 'The application changed since the PDF link was made',
  },
  PDF_UNAVAILABLE: {
    status: 503,
    message: SERVICE_MESSAGES.pdfFailed,
    meaning: 'The staff PDF cannot be produced right now',
  },
  RATE_LIMITED: {
    status: 429,
    message: MESSAGES.rateLimited,
    meaning: "Over the route's per-IP budget",
  },
  REQUEST_TIMEOUT: { status: 408, meaning: 'The body did not arrive within the request deadline' },
  RESET_REJECTED: {
    status: 400,
    message: MESSAGES.resetRejected,
    meaning: 'Invalid or expired password reset link',
  },
  SERVICE_READ_ONLY: {
    status: 403,
    message: SERVICE_MESSAGES.readOnly,
    meaning: 'A write with a service token, or a method but GET on /service/',
  },
  SERVICE_TOKEN_EXPIRED: {
    status: 401,
    message: SERVICE_MESSAGES.tokenExpired,
    meaning: 'The staff link has expired',
  },
  SERVICE_TOKEN_INVALID: {
    status: 401,
    message: SERVICE_MESSAGES.tokenInvalid,
    meaning:
      "The staff link is invalid, tampered, its applicant's account is gone, or the API key that minted it was revoked",
  },
  SERVICE_TOKEN_SCOPE: {
    status: 403,
    message: SERVICE_MESSAGES.tokenScope,
    meaning: 'The staff link was minted by an export-scoped API key, which opens only the PDF',
  },
  SESSION_INVALID: {
    status: 401,
    message: MESSAGES.sessionInvalid,
    meaning: 'No live applicant session',
  },
  SETUP_REJECTED: {
    status: 400,
    message: STAFF_MESSAGES.setupRejected,
    meaning: 'Invalid or expired staff set-up link',
  },
  STAFF_EXISTS: { status: 409, meaning: 'A staff member with this address exists (CLI)' },
  STAFF_FORBIDDEN: {
    status: 403,
    message: STAFF_MESSAGES.forbidden,
    meaning: "The staff member's role does not allow the call",
  },
  STAFF_SESSION_INVALID: {
    status: 401,
    message: STAFF_MESSAGES.sessionInvalid,
    meaning: 'No live staff session (or not past the second factor)',
  },
  SUBMIT_REQUIRED: {
    status: 409,
    message: MESSAGES.submitFirst,
    meaning: "Setting the status 'submitted' instead of submitting",
  },
  TOKEN_INVALID: {
    status: 404,
    message: MESSAGES.temporaryAnswersGone,
    meaning: 'An unknown or expired prefill token',
  },
  TOO_MANY: { status: 400, meaning: 'More add-another blocks than the button allows' },
  TOO_MANY_UPLOADS: {
    status: 429,
    message: DOCUMENT_MESSAGES.tooManyUploads,
    meaning: 'Over the uploads (3) or bytes (5 MB) an applicant may have in flight',
  },
  TOTP_REJECTED: {
    status: 401,
    message: STAFF_MESSAGES.codeRejected,
    meaning: 'Wrong, reused or expired TOTP code',
  },
  UNAUTHORIZED: { status: 401, meaning: 'GET /metrics without its token' },
  UNAVAILABLE: {
    status: 503,
    message: MESSAGES.unavailable,
    meaning: 'The database (or a provider) cannot be reached; Retry-After',
  },
  UNKNOWN_BUTTON: { status: 400, meaning: 'An add-another button the form does not have' },
  UNKNOWN_CATEGORY: {
    status: 400,
    message: LOOKUP_MESSAGES.unknownCategory,
    meaning: 'A lookup category that does not exist',
  },
  UNKNOWN_TAB: { status: 400, meaning: 'A tab group or tab the form does not have' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'A state change that is not JSON' },
  UPLOAD_EMPTY: { status: 400, meaning: 'An uploaded file below the size limit (empty)' },
  UPLOAD_FORM: {
    status: 400,
    message: DOCUMENT_MESSAGES.uploadRefused,
    meaning: 'A malformed upload form',
  },
  UPLOAD_NO_FILE: { status: 400, meaning: 'An upload form without its file' },
  UPLOAD_POLICY: { status: 403, meaning: 'An upload whose signed policy does not verify' },
  UPLOAD_TOO_LARGE: { status: 413, meaning: 'An uploaded file over the size limit' },
  UPLOAD_UNKNOWN: {
    status: 404,
    message: DOCUMENT_MESSAGES.uploadMissing,
    meaning: 'A file key that was never uploaded for this applicant and question',
  },
  UPLOAD_USED: {
    status: 409,
    message: DOCUMENT_MESSAGES.uploadUsed,
    otherStatuses: [403],
    meaning: 'The upload link was used already (403 from the local storage upload, as S3)',
  },
  VALIDATION_FAILED: {
    status: 400,
    meaning: 'A value the shared rules refuse (e-mail address, password rules)',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The statuses a code may be answered with besides its own. */
export type OtherStatus<C extends ErrorCode> = (typeof ERROR_CODES)[C] extends {
  otherStatuses: readonly (infer S)[];
}
  ? S
  : never;

/** The codes that carry their own message: AppError may leave the message out for them. */
export type CodeWithMessage = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { message: string } ? C : never;
}[ErrorCode];
