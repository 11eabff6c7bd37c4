// A round as the API shows it (RoundSummary): its times in UTC, and whether it takes saves now.
import type { RoundSummary } from '@admissions/api-contract';
import type { Round } from './rounds-store';

/** The deadline plus the grace period: the last moment a save or a submit is taken. */
export function findRoundClosingTime(round: Pick<Round, 'deadline' | 'graceMinutes'>): Date {
  return new Date(round.deadline.getTime() + round.graceMinutes * 60_000);
}

export function summarizeRound(round: Round, now: Date): RoundSummary {
  const closesAt = findRoundClosingTime(round);
  return {
    code: round.code,
    name: round.name,
    entry_term: round.entryTerm,
    opens_at: round.opensAt.toISOString(),
    deadline: round.deadline.toISOString(),
    closes_at: closesAt.toISOString(),
    open: round.opensAt.getTime() <= now.getTime() && now.getTime() < closesAt.getTime(),
  };
}
