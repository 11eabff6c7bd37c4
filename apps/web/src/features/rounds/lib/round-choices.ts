// What the round picker offers: the open rounds the applicant has no application in yet, and the
// applications they hold (docs/screens-and-routes.md).
import type { ApplicantApplication, RoundSummary } from '@admissions/api-contract';
import { getPartner } from '../../../shared/lib/partner';
import { describeTime, isRoundOpen, type ApplicationsView } from './round-clock';

export interface RoundChoices {
  /** Open rounds without an application of the applicant's. */
  startable: RoundSummary[];
  /** The applicant's applications with their round (newest first, as the server lists them). */
  held: { application: ApplicantApplication; round: RoundSummary | undefined }[];
}

export function listRoundChoices(view: ApplicationsView, now: number): RoundChoices {
  const heldCodes = new Set(view.applications.map((a) => a.round));
  return {
    startable: view.rounds.filter((r) => !heldCodes.has(r.code) && isRoundOpen(r, now)),
    held: view.applications.map((application) => ({
      application,
      round: view.rounds.find((r) => r.code === application.round),
    })),
  };
}

/** The next moment a round opens or closes: the picker's list changes then. */
export function findNextRoundChange(view: ApplicationsView, now: number): number | undefined {
  const moments = view.rounds
    .flatMap((r) => [Date.parse(r.opens_at), Date.parse(r.closes_at)])
    .filter((at) => at > now);
  return moments.length > 0 ? Math.min(...moments) : undefined;
}

/** Something to do: a round to start, or another application to open. */
export function hasRoundChoice(view: ApplicationsView, now: number): boolean {
  const { startable, held } = listRoundChoices(view, now);
  return startable.length > 0 || held.some((h) => h.application.round !== view.current);
}

/** "Fall 2027" for "2027FA" (the partner's entry terms), the code itself otherwise. */
export function describeEntryTerm(code: string): string {
  return getPartner().entryTerms.find((term) => term.value === code)?.label ?? code;
}

/** "Submitted on January 3, 2027 at 4:10 PM CST", "In progress". */
export function describeApplicationStatus(
  application: ApplicantApplication,
  timeZone: string,
): string {
  if (application.status !== 'submitted') return 'In progress';
  return application.submitted_at
    ? `Submitted on ${describeTime(application.submitted_at, timeZone)}`
    : 'Submitted';
}
