// The rounds feature's public entry point (issue #29): the applicant's applications and rounds,
// the deadline banner, the closing on the server's clock and the round picker.
export { applicationsQueryOptions, useApplications } from './api/get-applications';
export { useChooseApplication } from './api/choose-application';
export { DeadlineBanner } from './components/deadline-banner';
export { PICKER_TEXTS, RoundPicker } from './components/round-picker';
export type { ApplicationsView } from './lib/round-clock';
export { useRoundClosedMessage } from './lib/use-round-closed';
