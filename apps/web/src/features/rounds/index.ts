// The rounds feature's public entry point (issue #29): the applicant's applications and rounds,
// the deadline banner, the closing on the server's clock and the round picker.
export { useApplications } from './api/get-applications';
export { DeadlineBanner } from './components/deadline-banner';
export { RoundPickerSlot } from './components/round-picker-slot';
export { PICKER_TEXTS } from './lib/picker-texts';
export type { ApplicationsView } from './lib/round-clock';
export { useRoundClosedMessage } from './lib/use-round-closed';
