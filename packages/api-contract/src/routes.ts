// The URL of every call, shared by the server's route registration and the SPA's fetchers.
export const API_ROUTES = {
  health: '/health',
  login: '/public/login',
  signup: '/public/signup',
  confirm: '/public/confirm',
  resendConfirm: '/public/resend-confirm',
  forgotPassword: '/public/forgot-password',
  resetPassword: '/public/reset-password',
  logout: '/api/logout',
  profile: '/api/profile',
  answer: '/api/answer',
  lastPage: '/api/last-page',
  webStatus: '/api/web-status',
  validations: '/api/validations',
  submit: '/api/submit',
  addAnother: '/api/add-another',
  tabs: '/api/tabs',
  temporaryAnswers: '/public/tmp',
  partner: '/public/partner',
  presignedUrl: '/api/presigned-url',
  /** GET status, POST start, DELETE forget; `:key` is a file question (`*_doc`). */
  documentConversion: '/api/pdf/document-answer/:key',
  documentAnswers: '/api/document-answer',
  documentAnswer: '/api/document-answer/:key',
  /** The local storage driver's presigned-POST endpoint (S3 returns its own URL instead). */
  storageUpload: '/storage/upload',
  lookupFind: '/lookup/find',
  /** GET: status of the applicant's application PDF, starting its generation when needed. */
  applicationPdf: '/api/pdf',
  /** GET: the generated PDF itself, through the short-lived link that /api/pdf returns. */
  applicationPdfFile: '/api/pdf/file',
  /** Staff, read-only, with ?service_token=: the print view's data and the same PDF. */
  servicePrint: '/service/tmp-pdf',
  servicePdf: '/service/pdf',
} as const;

/** The SPA route of the staff print view; the CLI prints `${PUBLIC_URL}${PRINT_VIEW_PATH}?service_token=…`. */
export const PRINT_VIEW_PATH = '/print';

/** The JavaScript-readable login marker (docs/roles.md) starts with this; it carries no secret. */
export const LOGIN_MARKER_COOKIE_PREFIX = 'CognitoIdentityServiceProvider';
