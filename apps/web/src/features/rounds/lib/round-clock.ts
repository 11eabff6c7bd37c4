// What the deadline banner and the read-only application decide from: the rounds of
// GET /api/applications on the server's clock (the device's may be minutes off, and a countdown
// or a closing read from it would be wrong by as much).
import {
  fillRoundMessage,
  ROUND_MESSAGES,
  type ApplicantApplication,
  type ApplicationsResponse,
  type RoundSummary,
} from '@admissions/api-contract';
import { formatRoundTime } from '@admissions/form';

/** How the device's clock stands against the server's, measured with one call. */
export interface ServerClock {
  /** server − device, in milliseconds. */
  clockOffsetMs: number;
  /** The device's time when the answer arrived. */
  receivedAt: number;
}

/** GET /api/applications (or PUT /api/application's answer) with the clock it was measured on. */
export type ApplicationsView = ApplicationsResponse & ServerClock;

/** The banner names the deadline from a day before the round closes. */
export const BANNER_LEAD_MS = 24 * 60 * 60 * 1000;
/** The last hour shows a countdown. */
export const COUNTDOWN_LEAD_MS = 60 * 60 * 1000;

export type RoundPhase = 'early' | 'banner' | 'countdown' | 'closed';

/**
 * server − device: the server read its clock somewhere between sending and receiving, so the
 * middle of the round trip is the best guess of the device's time at that moment.
 */
export function measureClockOffset(serverTime: string, sentAt: number, receivedAt: number): number {
  const server = Date.parse(serverTime);
  if (Number.isNaN(server)) return 0;
  return server - (sentAt + receivedAt) / 2;
}

export function findRound(
  view: ApplicationsResponse,
  code: string | null,
): RoundSummary | undefined {
  return code === null ? undefined : view.rounds.find((round) => round.code === code);
}

export function findApplication(
  view: ApplicationsResponse,
  code: string | null,
): ApplicantApplication | undefined {
  return code === null ? undefined : view.applications.find((a) => a.round === code);
}

export function isSubmitted(application: ApplicantApplication | undefined): boolean {
  return application?.status === 'submitted';
}

/** Where `now` (server time, ms) stands against a round's closing. */
export function describeRoundPhase(round: RoundSummary, now: number): RoundPhase {
  const left = Date.parse(round.closes_at) - now;
  if (left <= 0) return 'closed';
  if (left <= COUNTDOWN_LEAD_MS) return 'countdown';
  if (left <= BANNER_LEAD_MS) return 'banner';
  return 'early';
}

/** The server time (ms) at which the round's phase changes next; undefined once it is closed. */
export function findNextPhaseChange(round: RoundSummary, now: number): number | undefined {
  const closes = Date.parse(round.closes_at);
  return [closes - BANNER_LEAD_MS, closes - COUNTDOWN_LEAD_MS, closes].find((at) => at > now);
}

/** Open on the server's clock: started, and not past its deadline and grace. */
export function isRoundOpen(round: RoundSummary, now: number): boolean {
  return Date.parse(round.opens_at) <= now && now < Date.parse(round.closes_at);
}

/**
 * The server time (ms) at which the deadline banner shows something new: the next phase, and in
 * the countdown the next second (counted up, so "00:01" shows until the round closes).
 */
export function findNextBannerChange(round: RoundSummary, now: number): number | undefined {
  if (describeRoundPhase(round, now) !== 'countdown') return findNextPhaseChange(round, now);
  const closes = Date.parse(round.closes_at);
  return closes - (Math.ceil((closes - now) / 1000) - 1) * 1000;
}

/** "mm:ss" of the time left, whole seconds rounded up, never below 00:00. */
export function formatCountdown(leftMs: number): string {
  const seconds = Math.max(0, Math.ceil(leftMs / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

/**
 * What a screen reader hears: whole minutes, so the sentence changes once a minute (the visible
 * mm:ss changes every second and is not announced).
 */
export function describeTimeLeft(leftMs: number, roundName: string): string {
  const minutes = Math.floor(Math.max(0, leftMs) / 60_000);
  if (minutes === 0) return `Less than a minute is left to submit your ${roundName} application.`;
  const unit = minutes === 1 ? 'minute is' : 'minutes are';
  return `${minutes} ${unit} left to submit your ${roundName} application.`;
}

/**
 * A time as the rounds' messages write it (formatRoundTime, packages/form). The picker calls this
 * rather than the package, so the formatter stays in one chunk with the clock: imported from two
 * chunks, Rollup merged it into Mantine's Paper chunk, which /login downloads (bundle budget).
 */
export function describeTime(iso: string, timeZone: string): string {
  return formatRoundTime(iso, timeZone);
}

/** The banner's sentence: the round and its published deadline in the institution's time zone. */
export function describeDeadline(round: RoundSummary, timeZone: string): string {
  return `The ${round.name} deadline is ${formatRoundTime(round.deadline, timeZone)}. Submit your application before then.`;
}

/** The server's ROUND_CLOSED message, written here for a round the clock says has closed. */
export function describeRoundClosed(round: RoundSummary, timeZone: string): string {
  return fillRoundMessage(ROUND_MESSAGES.closed, {
    round: round.name,
    deadline: formatRoundTime(round.deadline, timeZone),
  });
}
