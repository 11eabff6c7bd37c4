// The mail module's public entry point: other modules and boot/ import only from here.
export {
  ADDRESS_THROTTLE_MEMORY_MS,
  allowanceKey,
  deleteStaleAddressThrottles,
  takeAllowance,
  takeAllowanceSql,
  type Allowance,
} from './address-allowance';
export {
  MAIL_QUEUE,
  enqueueMail,
  isAccountMailRequest,
  startMailWorker,
  type AccountMailRequest,
  type AccountMailResolver,
  type MailJob,
} from './mail-jobs';
export {
  renderConfirmationCode,
  renderExistingAccountNotice,
  renderPasswordReset,
  renderChecklistRequest,
  renderRecommendationInvitation,
  renderRecommendationReminder,
  renderSignupAgain,
  renderSubmissionConfirmation,
  type RecommendationMail,
} from './templates';
export { addressThrottle } from './schema';
