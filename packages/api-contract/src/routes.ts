// Paths by name for the server's guards, the CLI and tests, read from the endpoint routes (the
// only place a path is written). The SPA calls endpoints through ENDPOINT_ROUTES instead.
import * as ROUTE from './endpoint-routes';
import { routePath } from './endpoint';

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
