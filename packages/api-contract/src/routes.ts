// Paths by name for the server's guards, the CLI and tests, read from the endpoint routes (the
// only place a path is written). The SPA calls endpoints through ENDPOINT_ROUTES instead and
// never imports this file, so these maps (built by calls) stay out of its bundle.
import * as ROUTE from './endpoint-routes';
import { routePath } from './endpoint';
import { STAFF_PAGES } from './paths';

export const API_ROUTES = {
  health: routePath(ROUTE.health),
  login: routePath(ROUTE.login),
  signup: routePath(ROUTE.signup),
  confirm: routePath(ROUTE.confirm),
  resendConfirm: routePath(ROUTE.resendConfirm),
  forgotPassword: routePath(ROUTE.forgotPassword),
  resetPassword: routePath(ROUTE.resetPassword),
  logout: routePath(ROUTE.logout),
  profile: routePath(ROUTE.readProfile),
  answer: routePath(ROUTE.saveAnswers),
  lastPage: routePath(ROUTE.saveLastPage),
  webStatus: routePath(ROUTE.advanceWebStatus),
  validations: routePath(ROUTE.saveValidations),
  submit: routePath(ROUTE.submit),
  addAnother: routePath(ROUTE.readAddAnother),
  tabs: routePath(ROUTE.readTabs),
  temporaryAnswers: routePath(ROUTE.readTemporaryAnswers),
  partner: routePath(ROUTE.readPartner),
  presignedUrl: routePath(ROUTE.createUploadUrl),
  /** GET status, POST start, DELETE forget; `:key` is a file question (`*_doc`). */
  documentConversion: routePath(ROUTE.readConversion),
  documentAnswers: routePath(ROUTE.readDocumentAnswers),
  documentAnswer: routePath(ROUTE.deleteDocument),
  /** GET: the PNG of a converted document's first page, for its owner only. */
  documentThumbnail: routePath(ROUTE.readDocumentThumbnail),
  /** The local storage driver's presigned-POST endpoint (S3 returns its own URL instead). */
  storageUpload: '/storage/upload',
  lookupFind: routePath(ROUTE.lookupFind),
  /** GET: status of the applicant's application PDF, starting its generation when needed. */
  applicationPdf: routePath(ROUTE.requestApplicationPdf),
  /** GET: the generated PDF itself, through the short-lived link that /api/pdf returns. */
  applicationPdfFile: routePath(ROUTE.downloadApplicationPdf),
  /** Staff, read-only, with ?service_token=: the print view's data and the same PDF. */
  servicePrint: routePath(ROUTE.readServicePrint),
  servicePdf: routePath(ROUTE.downloadServicePdf),
} as const;

export const STAFF_ROUTES = {
  /** The SPA's staff area (pages come from apps/web). */
  home: STAFF_PAGES.home,
  setupPage: STAFF_PAGES.setup,
  oidcStart: routePath(ROUTE.startStaffOidc),
  oidcCallback: routePath(ROUTE.finishStaffOidc),
  /** Which sign-in methods the sign-in page offers. */
  methods: routePath(ROUTE.readStaffMethods),
  /** Whether a staff member is signed in (200 either way). */
  session: routePath(ROUTE.readStaffSession),
  login: routePath(ROUTE.staffLogin),
  totp: routePath(ROUTE.staffTotp),
  setup: routePath(ROUTE.staffSetup),
  logout: routePath(ROUTE.staffLogout),
  me: routePath(ROUTE.readStaffMe),
  applications: routePath(ROUTE.listStaffApplications),
  application: routePath(ROUTE.readStaffApplication),
  applicationPdf: routePath(ROUTE.downloadStaffApplicationPdf),
  /** Webhook subscriptions and their delivery log (exporters). */
  webhooks: routePath(ROUTE.listStaffWebhooks),
  /** Campus systems, with `Authorization: Bearer <API key>`. */
  serviceTokens: routePath(ROUTE.mintServiceToken),
  serviceApplications: routePath(ROUTE.listServiceApplications),
} as const;

export const STAFF_EXPORT_ROUTES = {
  exports: routePath(ROUTE.listStaffExports),
  export: routePath(ROUTE.readStaffExport),
  exportDownload: routePath(ROUTE.downloadStaffExport),
} as const;
