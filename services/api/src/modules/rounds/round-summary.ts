// A round as the API shows it (RoundSummary): its times in UTC, and whether it takes saves now.
import type { RoundSummary } from '@admissions/api-contract';
import { isRoundOpen, readClosesAt } from './round-policy';
import type { Round } from './rounds-store';

export function summarizeRound(round: Round, now: Date): RoundSummary {
  return {
    code: round.code,
    name: round.name,
    entry_term: round.entryTerm,
    opens_at: round.opensAt.toISOString(),
    deadline: round.deadline.toISOString(),
    closes_at: readClosesAt(round).toISOString(),
    open: isRoundOpen(round, now),
  };
}
