// ENDPOINTS: every route of the HTTP API with its method, path, schemas, success answer and
// error codes. The server registers each from here (services/api platform/http/register-endpoint.ts)
// and the SPA's one client (apps/web src/shared/api/call-api.ts) types each call from it, so a
// wrong method, body or answer type does not compile. The SPA imports this file's types only:
// the schemas stay out of its bundle (endpoint-routes.ts is the runtime part it needs).
import { Type } from '@sinclair/typebox';
import type { PartnerConfig } from '@admissions/form';
import * as ROUTE from './endpoint-routes';
import { defineEndpoint } from './endpoint';
import type { ErrorCode } from './error-codes';
import { HealthResponse, MessageResponse } from './common';
import { ConfirmBody, LoginBody, ResetPasswordBody, SignupBody, UsernameBody } from './auth';
import { ProfileResponse } from './profile';
import {
  AddAnotherBody,
  AddAnotherResponse,
  AnswerPatch,
  LastPageBody,
  SubmitErrorResponse,
  TabsBody,
  TabsResponse,
  TemporaryAnswersQuery,
  TemporaryAnswersResponse,
  ValidationsBody,
  WebStatusBody,
} from './application';
import {
  ConversionStatusResponse,
  DocumentAnswersResponse,
  DocumentKeyParams,
  DocumentThumbnailQuery,
  PresignedUrlBody,
  PresignedUrlResponse,
  StartConversionBody,
} from './documents';
import { LookupQuery, LookupResponse } from './lookup';
import {
  ChecklistItemParams,
  ChecklistResponse,
  RecommendationBody,
  RecommendationPage,
  RecommendationSubmitResponse,
  RecommendationTokenParams,
  RecommenderBody,
  RecommenderParams,
  StaffRequestBody,
  StaffWaiverBody,
  UploadedFile,
} from './checklist';
import { ApplicationsResponse, ChooseApplicationBody, StaffRoundsResponse } from './rounds';
import {
  ApplicationPdfResponse,
  DownloadLinkQuery,
  ServicePrintResponse,
  ServiceTokenQuery,
} from './service';
import {
  ExternalIdBody,
  ExternalIdResponse,
  STAFF_EXPORT_RETENTION_DAYS,
  ServiceTokenBody,
  ServiceTokenResponse,
  StaffApplicationParams,
  StaffApplicationResponse,
  StaffExportBody,
  StaffExportListResponse,
  StaffExportResponse,
  StaffListQuery,
  StaffListResponse,
  StaffLoginBody,
  StaffLoginResponse,
  StaffMeResponse,
  StaffMethodsResponse,
  StaffSessionResponse,
  StaffSetupBody,
  StaffTotpBody,
} from './staff';
import { StaffWebhooksResponse, WEBHOOK_RECENT_DELIVERIES } from './webhooks';

/** A file answer (PDF, zip): bytes, not JSON; its errors are still JSON. */
export const PdfFileResponse = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: 'The PDF, as an attachment named lastname_firstname_applicationid.pdf',
});
// The server streams it from disk (a Node stream is an async iterable of chunks).
const ExportFileResponse = Type.Unsafe<Uint8Array | AsyncIterable<Uint8Array>>({
  type: 'string',
  format: 'binary',
});
/** A document's first-page thumbnail: PNG bytes (its errors are JSON). */
const PngFileResponse = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: "A PNG of the converted document's first page",
});
const Redirect = Type.Null();

// What any route may answer, whatever it does: a request outside its schema, the rate limit,
// load shedding, a database outage, a bug.
const ANY = ['INVALID_REQUEST', 'RATE_LIMITED', 'OVERLOADED', 'UNAVAILABLE', 'INTERNAL'] as const;
// And what the platform refuses of a state change before any route runs (http/request-guard.ts,
// http/body-deadline.ts, service/read-only-guard.ts).
const WRITE = [
  ...ANY,
  'CROSS_SITE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SERVICE_READ_ONLY',
  'REQUEST_TIMEOUT',
] as const;
// The refusals of an endpoint's access (401, 403) come from its entry in endpoint-access.ts.
// Every write of the applicant's own application once it is submitted.
const OPEN = ['ALREADY_SUBMITTED', 'NO_APPLICATION', 'ROUND_CLOSED'] as const;

const accounts = ['accounts'];
const application = ['application'];
const documents = ['documents'];
const service = ['service'];
const staff = ['staff'];
const checklist = ['checklist'];
const operations = ['operations'];
const apiKey = [{ apiKey: [] }];
const pdf = ['application/pdf', 'application/json'];

export const ENDPOINTS = {
  health: defineEndpoint(ROUTE.health, {
    tags: operations,
    summary: 'Ready when the database answers',
    response: { 200: HealthResponse },
    errors: ['OVERLOADED', 'UNAVAILABLE'],
  }),
  readPartner: defineEndpoint(ROUTE.readPartner, {
    tags: operations,
    summary: "The institution's configuration shown in the application",
    response: {
      200: Type.Unsafe<PartnerConfig>({ type: 'object', additionalProperties: true }),
    },
    errors: [...ANY],
  }),

  signup: defineEndpoint(ROUTE.signup, {
    tags: accounts,
    summary:
      'Create an account; e-mails a confirmation code and sets the sign-up cookie the confirmation reads',
    body: SignupBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'VALIDATION_FAILED', 'PASSWORD_TOO_COMMON'],
  }),
  confirm: defineEndpoint(ROUTE.confirm, {
    tags: accounts,
    summary:
      "Confirm an account with the e-mailed 6-digit code; the account takes the password of this browser's sign-up",
    body: ConfirmBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'CODE_REJECTED'],
  }),
  resendConfirm: defineEndpoint(ROUTE.resendConfirm, {
    tags: accounts,
    summary:
      'E-mail the confirmation code again (the live one; a new one when it is used up or expired)',
    body: UsernameBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'VALIDATION_FAILED'],
  }),
  login: defineEndpoint(ROUTE.login, {
    tags: accounts,
    summary: 'Log in; sets the session cookie and the login marker cookie',
    body: LoginBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'LOGIN_FAILED', 'NOT_CONFIRMED', 'ACCOUNT_LOCKED'],
  }),
  forgotPassword: defineEndpoint(ROUTE.forgotPassword, {
    tags: accounts,
    summary: 'E-mail a password reset link',
    body: UsernameBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'VALIDATION_FAILED'],
  }),
  resetPassword: defineEndpoint(ROUTE.resetPassword, {
    tags: accounts,
    summary: 'Set a new password with the e-mailed reset id; ends every session',
    body: ResetPasswordBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'VALIDATION_FAILED', 'PASSWORD_TOO_COMMON', 'RESET_REJECTED'],
  }),
  logout: defineEndpoint(ROUTE.logout, {
    tags: accounts,
    summary: 'Log out: ends the session on the server and clears the cookies',
    response: { 200: MessageResponse },
    // A GET that changes state: the cross-site guard covers it (http/request-guard.ts).
    errors: [...ANY, 'CROSS_SITE'],
  }),

  readProfile: defineEndpoint(ROUTE.readProfile, {
    tags: application,
    summary: "The applicant's saved answers, logins and progress",
    response: { 200: ProfileResponse },
    errors: [...ANY],
  }),
  readApplications: defineEndpoint(ROUTE.readApplications, {
    tags: application,
    summary: "The applicant's applications (one per round), the rounds and the current one",
    response: { 200: ApplicationsResponse },
    errors: [...ANY],
  }),
  chooseApplication: defineEndpoint(ROUTE.chooseApplication, {
    tags: application,
    summary: 'Make the application in a round the current one, starting it if need be',
    description:
      'Starting one needs the round open (409 ROUND_NOT_OPEN before it opens, ROUND_CLOSED ' +
      'after it closes); choosing an existing one is always allowed (a closed one reads only). ' +
      '`copy_from_last` starts it from the latest other application, without the sensitive ' +
      'and disciplinary answers and the documents.',
    body: ChooseApplicationBody,
    response: { 200: ApplicationsResponse },
    errors: [...WRITE, 'ROUND_NOT_FOUND', 'ROUND_NOT_OPEN', 'ROUND_CLOSED'],
  }),
  saveAnswers: defineEndpoint(ROUTE.saveAnswers, {
    tags: application,
    summary: 'Merge answers into the saved application (atomic; unknown keys refused)',
    body: AnswerPatch,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'INVALID_ANSWER'],
  }),
  saveLastPage: defineEndpoint(ROUTE.saveLastPage, {
    tags: application,
    summary: 'Remember the page the applicant is on',
    body: LastPageBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN],
  }),
  advanceWebStatus: defineEndpoint(ROUTE.advanceWebStatus, {
    tags: application,
    summary: 'Advance the web status (idempotent, forward-only)',
    body: WebStatusBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'SUBMIT_REQUIRED'],
  }),
  saveValidations: defineEndpoint(ROUTE.saveValidations, {
    tags: application,
    summary: 'Store the latest error map shown to the applicant',
    body: ValidationsBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'INVALID_ANSWER'],
  }),
  submit: defineEndpoint(ROUTE.submit, {
    tags: application,
    summary: 'Validate on the server and freeze the application',
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'CONVERSION_PENDING', 'MISSING_INFORMATION'],
    errorBodies: { 422: SubmitErrorResponse },
  }),
  readAddAnother: defineEndpoint(ROUTE.readAddAnother, {
    tags: application,
    summary: 'Blocks shown per add-another button',
    response: { 200: AddAnotherResponse },
    errors: [...ANY],
  }),
  saveAddAnother: defineEndpoint(ROUTE.saveAddAnother, {
    tags: application,
    summary: 'Set the number of blocks of an add-another button (1 to its maximum)',
    body: AddAnotherBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'UNKNOWN_BUTTON', 'TOO_MANY'],
  }),
  readTabs: defineEndpoint(ROUTE.readTabs, {
    tags: application,
    summary: 'Chosen tab per tab group',
    response: { 200: TabsResponse },
    errors: [...ANY],
  }),
  chooseTab: defineEndpoint(ROUTE.chooseTab, {
    tags: application,
    summary: 'Choose a tab; clears the answers of the tab left',
    body: TabsBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'UNKNOWN_TAB', 'CONVERSION_IN_PROGRESS'],
  }),
  readTemporaryAnswers: defineEndpoint(ROUTE.readTemporaryAnswers, {
    tags: application,
    summary: 'A prefilled answer set for an anonymous visitor (from a prefill link)',
    query: TemporaryAnswersQuery,
    response: { 200: TemporaryAnswersResponse },
    errors: [...ANY, 'TOKEN_INVALID'],
  }),

  createUploadUrl: defineEndpoint(ROUTE.createUploadUrl, {
    tags: documents,
    summary:
      'An upload link for one file question: that key only, 1 B–1 MB, 10 minutes, one upload; 429 past 3 uploads or 5 MB in flight',
    body: PresignedUrlBody,
    response: { 200: PresignedUrlResponse },
    errors: [...WRITE, ...OPEN, 'NOT_A_FILE_QUESTION', 'TOO_MANY_UPLOADS'],
  }),
  startConversion: defineEndpoint(ROUTE.startConversion, {
    tags: documents,
    summary: 'Convert an uploaded file to PDF (poll GET for the result)',
    params: DocumentKeyParams,
    body: StartConversionBody,
    response: { 200: ConversionStatusResponse },
    errors: [
      ...WRITE,
      ...OPEN,
      'NOT_A_FILE_QUESTION',
      'UPLOAD_UNKNOWN',
      'UPLOAD_USED',
      'CONVERSION_IN_PROGRESS',
    ],
  }),
  readConversion: defineEndpoint(ROUTE.readConversion, {
    tags: documents,
    summary: 'Conversion status: COMPLETED, FAILED, IN_PROGRESS, UNPROCESSED or NOT_ANSWERED',
    params: DocumentKeyParams,
    response: { 200: ConversionStatusResponse },
    errors: [...ANY, 'NOT_A_FILE_QUESTION'],
  }),
  forgetConversion: defineEndpoint(ROUTE.forgetConversion, {
    tags: documents,
    summary: 'Forget the conversion (after a failure); a converted document stays',
    params: DocumentKeyParams,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'NOT_A_FILE_QUESTION', 'CONVERSION_IN_PROGRESS'],
  }),
  readDocumentAnswers: defineEndpoint(ROUTE.readDocumentAnswers, {
    tags: documents,
    summary: 'Converted documents per file question: file name and size',
    response: { 200: DocumentAnswersResponse },
    errors: [...ANY],
  }),
  readDocumentThumbnail: defineEndpoint(ROUTE.readDocumentThumbnail, {
    tags: documents,
    summary: "A PNG of the converted document's first page, as the admissions office will see it",
    description:
      "For the document's owner only: 404 when the question has no converted document of this " +
      "session's applicant (another applicant's included), or the document has no thumbnail. " +
      'Not cached (`Cache-Control: no-store`). The link comes from the COMPLETED status ' +
      '(`thumbnail_url`).',
    params: DocumentKeyParams,
    query: DocumentThumbnailQuery,
    produces: ['image/png', 'application/json'],
    response: { 200: PngFileResponse },
    errors: [...ANY, 'NOT_A_FILE_QUESTION', 'NOT_FOUND'],
  }),
  deleteDocument: defineEndpoint(ROUTE.deleteDocument, {
    tags: documents,
    summary: 'Delete the document of a file question and clear its answer',
    params: DocumentKeyParams,
    response: { 200: MessageResponse },
    errors: [...WRITE, ...OPEN, 'NOT_A_FILE_QUESTION', 'CONVERSION_IN_PROGRESS'],
  }),

  readChecklist: defineEndpoint(ROUTE.readChecklist, {
    tags: checklist,
    summary:
      "The current application's checklist (Awaiting / Received / Waived) and its recommenders",
    description: 'Never returns a letter or anything of its contents.',
    response: { 200: ChecklistResponse },
    errors: [...ANY, 'NO_APPLICATION'],
  }),
  addRecommender: defineEndpoint(ROUTE.addRecommender, {
    tags: checklist,
    summary: 'Name a recommender: e-mails them a single-purpose link that works for 60 days',
    description:
      'Before or after submit. The FERPA answer on Final Steps goes with the invitation. One audit row.',
    body: RecommenderBody,
    response: { 200: ChecklistResponse },
    errors: [
      ...WRITE,
      'NO_APPLICATION',
      'VALIDATION_FAILED',
      'FERPA_UNANSWERED',
      'RECOMMENDER_LIMIT',
    ],
  }),
  updateRecommender: defineEndpoint(ROUTE.updateRecommender, {
    tags: checklist,
    summary: "Change a recommender's name, type or e-mail; a new e-mail kills the old link",
    params: RecommenderParams,
    body: RecommenderBody,
    response: { 200: ChecklistResponse },
    errors: [
      ...WRITE,
      'NO_APPLICATION',
      'NOT_FOUND',
      'VALIDATION_FAILED',
      'RECOMMENDER_LIMIT',
      'RECOMMENDER_LOCKED',
      'CONVERSION_IN_PROGRESS',
      'FERPA_UNANSWERED',
    ],
  }),
  removeRecommender: defineEndpoint(ROUTE.removeRecommender, {
    tags: checklist,
    summary: 'Remove a recommender who has not submitted; their link stops working',
    params: RecommenderParams,
    response: { 200: ChecklistResponse },
    errors: [...WRITE, 'NO_APPLICATION', 'NOT_FOUND', 'RECOMMENDER_LOCKED'],
  }),
  remindRecommender: defineEndpoint(ROUTE.remindRecommender, {
    tags: checklist,
    summary: 'E-mail the recommender a reminder (one a day)',
    params: RecommenderParams,
    response: { 200: ChecklistResponse },
    errors: [
      ...WRITE,
      'NO_APPLICATION',
      'NOT_FOUND',
      'RECOMMENDER_LOCKED',
      'REMINDER_TOO_SOON',
      'FERPA_UNANSWERED',
    ],
  }),
  uploadChecklistItem: defineEndpoint(ROUTE.uploadChecklistItem, {
    tags: checklist,
    summary: 'Upload the file of an item the office asked for (PDF or Word, base64, 1 MB)',
    description:
      'Converted like every upload; the item is Received once the conversion completes. The answers stay as submitted.',
    params: ChecklistItemParams,
    body: UploadedFile,
    response: { 200: ChecklistResponse },
    errors: [
      ...WRITE,
      'NO_APPLICATION',
      'NOT_FOUND',
      'CHECKLIST_ITEM_CLOSED',
      'CHECKLIST_FILE_REFUSED',
      'CONVERSION_IN_PROGRESS',
    ],
  }),
  readRecommendation: defineEndpoint(ROUTE.readRecommendation, {
    tags: checklist,
    summary: "The recommender's page: who the applicant is and the letter's status",
    description: 'Writes one audit row (link opened).',
    params: RecommendationTokenParams,
    response: { 200: RecommendationPage },
    errors: [...ANY, 'RECOMMENDATION_LINK_INVALID', 'RECOMMENDATION_LINK_EXPIRED'],
  }),
  submitRecommendation: defineEndpoint(ROUTE.submitRecommendation, {
    tags: checklist,
    summary: 'Submit the letter (a PDF or Word file, or typed) and the structured answers',
    description: 'Once per link: a second submit answers 409. Writes one audit row.',
    params: RecommendationTokenParams,
    body: RecommendationBody,
    response: { 200: RecommendationSubmitResponse },
    errors: [
      ...WRITE,
      'RECOMMENDATION_LINK_INVALID',
      'RECOMMENDATION_LINK_EXPIRED',
      'RECOMMENDATION_SUBMITTED',
      'CHECKLIST_FILE_REFUSED',
    ],
  }),

  requestApplicationPdf: defineEndpoint(ROUTE.requestApplicationPdf, {
    tags: application,
    summary: "Status of the applicant's application PDF; starts its generation when needed",
    description:
      'Cached per version of the application (answers, tabs, add-another counts, documents). ' +
      'The first call for a version queues a job and answers UNPROCESSED; then IN_PROGRESS, ' +
      'and COMPLETED with `url`, a same-origin link valid for 5 minutes and only with the ' +
      "owner's session. FAILED carries a message to show; a call a minute later tries again.",
    response: { 200: ApplicationPdfResponse },
    errors: [...ANY],
  }),
  downloadApplicationPdf: defineEndpoint(ROUTE.downloadApplicationPdf, {
    tags: application,
    summary: 'Download the application PDF through the link GET /api/pdf returned',
    description:
      "401 without a session; 403 when the link's signature is wrong, it has expired, or it " +
      'belongs to another applicant; 404 when the application changed since (ask GET /api/pdf ' +
      'again).',
    query: DownloadLinkQuery,
    produces: pdf,
    response: { 200: PdfFileResponse },
    errors: [...ANY, 'LINK_INVALID', 'LINK_EXPIRED', 'PDF_STALE'],
  }),

  readServicePrint: defineEndpoint(ROUTE.readServicePrint, {
    tags: service,
    summary: "Staff print view: one applicant's answers, add-another counts, documents and tabs",
    description:
      'Read-only, with a service token minted by `npm run cli -- service-token`. The sealed ' +
      'answers (SSN, alien registration number) are returned masked. Each successful read ' +
      'writes one service_audit row (token id, applicant, keys shown, never values). 401: ' +
      'invalid, tampered or expired token; 403: any method but GET.',
    query: ServiceTokenQuery,
    response: { 200: ServicePrintResponse },
    errors: [...ANY, 'SERVICE_READ_ONLY'],
  }),
  downloadServicePdf: defineEndpoint(ROUTE.downloadServicePdf, {
    tags: service,
    summary: "Staff download of the applicant's application PDF (answers, then documents)",
    description:
      'The same document the applicant downloads, laid out from the staff view. Read-only ' +
      'and audited like the print view. 401: invalid, tampered or expired token; 403: any ' +
      'method but GET; 503 when the PDF cannot be produced right now.',
    query: ServiceTokenQuery,
    produces: pdf,
    response: { 200: PdfFileResponse },
    errors: [...ANY, 'SERVICE_READ_ONLY', 'PDF_UNAVAILABLE'],
  }),

  startStaffOidc: defineEndpoint(ROUTE.startStaffOidc, {
    tags: staff,
    summary: "Staff sign-in through the institution's identity provider (OpenID Connect)",
    description:
      'Redirects to the provider (authorization code with PKCE, state and nonce, kept in a ' +
      'sealed 10-minute cookie). 404 when no provider is configured.',
    response: { 302: Redirect },
    errors: [...ANY, 'OIDC_NOT_CONFIGURED', 'OIDC_UNAVAILABLE'],
  }),
  finishStaffOidc: defineEndpoint(ROUTE.finishStaffOidc, {
    tags: staff,
    summary: "The identity provider's redirect back: verifies it and starts a staff session",
    description:
      'Redirects to /staff with the session cookie, or to /staff?sign_in_error=refused (not an ' +
      'allowed domain or group, or disabled) or =failed (anything that did not verify).',
    query: Type.Object({}, { additionalProperties: true }),
    response: { 302: Redirect },
    errors: [...ANY, 'OIDC_NOT_CONFIGURED'],
  }),
  readStaffMethods: defineEndpoint(ROUTE.readStaffMethods, {
    tags: staff,
    summary: 'The sign-in methods the staff sign-in page offers',
    response: { 200: StaffMethodsResponse },
    errors: [...ANY],
  }),
  readStaffSession: defineEndpoint(ROUTE.readStaffSession, {
    tags: staff,
    summary: 'Whether a staff member is signed in here, and who (the staff pages ask on load)',
    description:
      'Always 200: `{ "signed_in": false }` without a signed-in staff session (none, ended, or ' +
      'still waiting for its TOTP code), else `signed_in: true` with the e-mail and role. ' +
      'GET /staff/api/me answers 401 in the first case, which a browser logs as an error.',
    response: { 200: StaffSessionResponse },
    errors: [...ANY],
  }),
  staffLogin: defineEndpoint(ROUTE.staffLogin, {
    tags: staff,
    summary: 'Local staff sign-in, step 1: e-mail and password',
    description:
      'Sets a short pending session (cookie staff_sid) for the TOTP step. On the first ' +
      'sign-in the answer carries the TOTP secret and otpauth:// URI to enrol. 401 wrong ' +
      'e-mail or password; 429 locked out (as applicants: from the fifth failure).',
    body: StaffLoginBody,
    response: { 200: StaffLoginResponse },
    errors: [...WRITE, 'LOGIN_FAILED', 'ACCOUNT_LOCKED'],
  }),
  staffTotp: defineEndpoint(ROUTE.staffTotp, {
    tags: staff,
    summary: 'Local staff sign-in, step 2: the TOTP code (confirms the enrolment the first time)',
    body: StaffTotpBody,
    response: { 200: StaffMeResponse },
    errors: [...WRITE, 'TOTP_REJECTED', 'ACCOUNT_LOCKED'],
  }),
  staffSetup: defineEndpoint(ROUTE.staffSetup, {
    tags: staff,
    summary: 'Sets a local staff password from the one-time link printed by `staff add`',
    body: StaffSetupBody,
    response: { 200: MessageResponse },
    errors: [...WRITE, 'SETUP_REJECTED', 'VALIDATION_FAILED', 'PASSWORD_TOO_COMMON'],
  }),
  staffLogout: defineEndpoint(ROUTE.staffLogout, {
    tags: staff,
    summary: 'Ends the staff session',
    response: { 200: MessageResponse },
    errors: [...WRITE],
  }),
  readStaffMe: defineEndpoint(ROUTE.readStaffMe, {
    tags: staff,
    summary: 'The signed-in staff member',
    response: { 200: StaffMeResponse },
    errors: [...ANY],
  }),
  listStaffApplications: defineEndpoint(ROUTE.listStaffApplications, {
    tags: staff,
    summary: 'Applications: search (name or e-mail, accent-insensitive), filter, sort, page',
    query: StaffListQuery,
    response: { 200: StaffListResponse },
    errors: [...ANY],
  }),
  listStaffRounds: defineEndpoint(ROUTE.listStaffRounds, {
    tags: staff,
    summary: 'The admission rounds with their dates and application counts',
    response: { 200: StaffRoundsResponse },
    errors: [...ANY],
  }),
  readStaffApplication: defineEndpoint(ROUTE.readStaffApplication, {
    tags: staff,
    summary: "One application: the print view's data, its documents and conversion status",
    description: 'Writes one service_audit row naming the staff member. 404 unknown id.',
    params: StaffApplicationParams,
    response: { 200: StaffApplicationResponse },
    errors: [...ANY, 'NOT_FOUND'],
  }),
  downloadStaffApplicationPdf: defineEndpoint(ROUTE.downloadStaffApplicationPdf, {
    tags: staff,
    summary: 'The staff PDF of one application (as GET /service/pdf)',
    description: 'Writes one service_audit row naming the staff member. 404 unknown id.',
    params: StaffApplicationParams,
    produces: pdf,
    response: { 200: PdfFileResponse },
    errors: [...ANY, 'NOT_FOUND', 'PDF_UNAVAILABLE'],
  }),
  readStaffChecklist: defineEndpoint(ROUTE.readStaffChecklist, {
    tags: staff,
    summary: "An application's checklist and recommenders, as the office sees them",
    params: StaffApplicationParams,
    response: { 200: ChecklistResponse },
    errors: [...ANY, 'NOT_FOUND'],
  }),
  requestStaffItem: defineEndpoint(ROUTE.requestStaffItem, {
    tags: staff,
    summary: 'Ask the applicant for an item (processor): one e-mail and an upload slot',
    description: 'Writes one service_audit row. The answers stay as submitted.',
    params: StaffApplicationParams,
    body: StaffRequestBody,
    response: { 200: ChecklistResponse },
    errors: [...WRITE, 'NOT_FOUND'],
  }),
  waiveStaffItem: defineEndpoint(ROUTE.waiveStaffItem, {
    tags: staff,
    summary: 'Waive a checklist item (processor)',
    description: 'Writes one service_audit row.',
    params: StaffApplicationParams,
    body: StaffWaiverBody,
    response: { 200: ChecklistResponse },
    errors: [...WRITE, 'NOT_FOUND', 'CHECKLIST_ITEM_CLOSED'],
  }),
  startStaffExport: defineEndpoint(ROUTE.startStaffExport, {
    tags: staff,
    summary:
      'Starts an export of the selection (exporter role): PDFs through the pg-boss export job, or a data file',
    description:
      "Only what changed since this exporter's last export is rendered (or, for a data export, " +
      'written) unless `force`. `include_sensitive` (data formats only, with a `reason`) decrypts ' +
      'SSN and alien registration number into the file and writes one service_audit row per ' +
      'application. 403 for readers; 409 while another export of this exporter runs.',
    body: StaffExportBody,
    response: { 202: StaffExportResponse },
    errors: [...WRITE, 'EXPORT_RUNNING'],
  }),
  listStaffExports: defineEndpoint(ROUTE.listStaffExports, {
    tags: staff,
    summary: "The exporter's 20 latest exports, newest first",
    response: { 200: StaffExportListResponse },
    errors: [...ANY],
  }),
  readStaffExport: defineEndpoint(ROUTE.readStaffExport, {
    tags: staff,
    summary: "An export's progress (its exporter only)",
    params: StaffApplicationParams,
    response: { 200: StaffExportResponse },
    errors: [...ANY, 'NOT_FOUND'],
  }),
  downloadStaffExport: defineEndpoint(ROUTE.downloadStaffExport, {
    tags: staff,
    summary:
      'The finished export: the zip (PDFs, index.csv, index.json), the combined PDF or the data file',
    description:
      'Writes one service_audit row per application in the file, naming the exporter. 410 ' +
      `once deleted (${STAFF_EXPORT_RETENTION_DAYS} days after it finished).`,
    params: StaffApplicationParams,
    produces: [
      'application/zip',
      'application/pdf',
      'text/csv',
      'application/json',
      'application/x-ndjson',
    ],
    response: { 200: ExportFileResponse },
    errors: [...ANY, 'NOT_FOUND', 'EXPORT_NOT_READY', 'EXPORT_EXPIRED', 'EXPORT_UNAUDITED'],
  }),
  listStaffWebhooks: defineEndpoint(ROUTE.listStaffWebhooks, {
    tags: staff,
    summary: 'Webhook subscriptions and their delivery log (exporter role)',
    description:
      'Every subscription (never its secret) with its deliveries counted by status and the ' +
      `${WEBHOOK_RECENT_DELIVERIES} latest, newest first: status, attempts, the last HTTP ` +
      'status and error, and when. Subscriptions are added with `npm run cli -- webhooks add`.',
    response: { 200: StaffWebhooksResponse },
    errors: [...ANY],
  }),

  mintServiceToken: defineEndpoint(ROUTE.mintServiceToken, {
    tags: service,
    security: apiKey,
    summary: 'Mints a print-view token (read-only, one applicant) for a campus system',
    description:
      'API key scope read or export. The token opens GET /service/tmp-pdf and /service/pdf ' +
      'for this applicant only, until it expires (default 15 minutes, at most 24 hours); ' +
      'each read is audited with the token id. 401 missing, invalid or revoked key; 404 unknown applicant.',
    body: ServiceTokenBody,
    response: { 200: ServiceTokenResponse },
    errors: [...WRITE, 'NOT_FOUND'],
  }),
  listServiceApplications: defineEndpoint(ROUTE.listServiceApplications, {
    tags: service,
    security: apiKey,
    summary: 'The applications list (as the staff area shows it) for a campus system',
    description: 'API key scope read or export. 401 missing, invalid or revoked key.',
    query: StaffListQuery,
    response: { 200: StaffListResponse },
    errors: [...ANY, 'SERVICE_READ_ONLY'],
  }),

  setExternalId: defineEndpoint(ROUTE.setExternalId, {
    tags: service,
    security: apiKey,
    summary: "Store the student information system's ID of an application (the return feed)",
    description:
      'API key scope write-ids, which writes nothing else. An ID already given to another application answers 409.',
    params: StaffApplicationParams,
    body: ExternalIdBody,
    response: { 200: ExternalIdResponse },
    errors: [...WRITE, 'NOT_FOUND', 'EXTERNAL_ID_TAKEN'],
  }),

  lookupFind: defineEndpoint(ROUTE.lookupFind, {
    tags: ['lookup'],
    summary: 'Search schools or addresses (text) or fetch the record behind a result (id)',
    query: LookupQuery,
    response: { 200: LookupResponse },
    errors: [...ANY, 'UNKNOWN_CATEGORY', 'NOT_FOUND'],
  }),
} as const;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
/** Every route, "METHOD /path". */
export type EndpointRoute = Endpoints[EndpointName]['route'];
type EndpointsByRoute = { [K in EndpointName as Endpoints[K]['route']]: Endpoints[K] };
/** The endpoint of a route. */
export type EndpointOf<R extends EndpointRoute> = EndpointsByRoute[R];

/** Codes used by no endpoint are answered by the platform alone (the upload form, /metrics). */
export type EndpointErrorCode = Endpoints[EndpointName]['errors'][number] & ErrorCode;
