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
} as const;

/** The JavaScript-readable login marker (SPEC §6) starts with this; it carries no secret. */
export const LOGIN_MARKER_COOKIE_PREFIX = 'CognitoIdentityServiceProvider';
