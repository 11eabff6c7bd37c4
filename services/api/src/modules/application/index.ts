// The application module's public entry point: other modules and boot/ import only from here.
export { applicationRoutes } from './application-routes';
export {
  createApplicationService,
  type ApplicationFiles,
  type ApplicationService,
} from './application-service';
export {
  createApplicantResolver,
  type Applicant,
  type ApplicantResolver,
} from './current-application';
export {
  bumpChecklistVersion,
  explainRefusedWrite,
  findApplicationByExternalId,
  setExternalId,
  findApplication,
  findCurrentApplicationId,
  hasNoApplications,
  jsonb,
  lockApplication,
  openApplication,
  readAnswers,
  readSealedAnswer,
  readApplicationVersion,
  readPlainAnswers,
  setFileAnswer,
  type ApplicantWrite,
} from './application-store';
export {
  PREFILL_DEFAULT_TTL_MS,
  PREFILL_MAX_TTL_MS,
  checkPrefillAnswers,
  storePrefill,
} from './prefill';
export { applications, temporaryAnswers } from './schema';
