// What the checklist says (issue #30): the words of each status, type and date, in one place so
// the applicant's page and the staff panel read alike.
import type { ChecklistItem, Recommender, RecommenderType } from '@admissions/api-contract';
import { getPartner } from '../../../shared/lib/partner';

export const STATUS_LABELS: Record<ChecklistItem['status'], string> = {
  awaiting: 'Awaiting',
  received: 'Received',
  waived: 'Waived',
};

/** Awaiting draws the eye; received is done; waived is no longer asked for. */
export const STATUS_COLORS: Record<ChecklistItem['status'], string> = {
  awaiting: 'amber',
  received: 'brown',
  waived: 'gray',
};

export const RECOMMENDER_TYPE_LABELS: Record<RecommenderType, string> = {
  counselor: 'School counselor',
  teacher: 'Teacher',
  other: 'Other recommender',
};

export const RECOMMENDER_STATUS_LABELS: Record<Recommender['status'], string> = {
  invited: 'Invited',
  received: 'Letter received',
};

export const ADD_RECOMMENDER_HEADING = 'Add a recommender';
export const NEW_EMAIL_NOTICE =
  'If you change the e-mail address, we send a new link to the new address and the old link stops working.';

/**
 * "November 21, 2026 at 10:00 AM CST", in the institution's time zone: the words of
 * packages/form's formatRoundTime, written again here because importing it moved that module out
 * of the small chunk it shares with /login and reshuffled the chunks a first visit loads.
 */
export function formatChecklistTime(iso: string): string {
  const moment = new Date(iso);
  const timeZone = getPartner().timeZone;
  const write = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(moment);
  const date = write({ month: 'long', day: 'numeric', year: 'numeric' });
  const time = write({ hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  return `${date} at ${time}`.replace(/[\u00a0\u202f]/g, ' ');
}

/** "November 20, 2026", in the institution's time zone (as every deadline is written). */
export function formatChecklistDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: getPartner().timeZone,
  }).format(new Date(iso));
}

/** "23 hours 5 minutes", "1 minute", "less than a minute": how long until `until`. */
export function formatWait(milliseconds: number): string {
  const minutes = Math.ceil(milliseconds / 60_000);
  if (milliseconds < 60_000) return 'less than a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (hours === 0) return part(rest, 'minute');
  return rest === 0 ? part(hours, 'hour') : `${part(hours, 'hour')} ${part(rest, 'minute')}`;
}

/** The FERPA answer an invitation went out with, as the applicant or the office reads it. */
export function describeFerpa(waived: boolean, audience: ChecklistAudience): string {
  const who = audience === 'applicant' ? 'You' : 'The applicant';
  return waived
    ? `${who} waived the right to read this letter (FERPA).`
    : `${who} did not waive the right to read this letter (FERPA).`;
}

/** Who reads the checklist: the applicant acts on it, the office reads it. */
export type ChecklistAudience = 'applicant' | 'staff';
