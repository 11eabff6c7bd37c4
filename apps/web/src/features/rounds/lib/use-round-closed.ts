import { describeRoundClosed, findApplication, findRound, isSubmitted } from './round-clock';
import type { ApplicationsView } from './round-clock';
import { useServerNow } from './use-server-now';

const NO_ROUNDS: ApplicationsView = {
  time_zone: 'UTC',
  server_time: '',
  current: null,
  applications: [],
  rounds: [],
  clockOffsetMs: 0,
  receivedAt: 0,
};

/**
 * The server's ROUND_CLOSED message once the current, unsubmitted application's round has
 * closed on the server's clock (re-rendering the caller at that moment); null before, and
 * without rounds.
 */
export function useRoundClosedMessage(view: ApplicationsView | undefined): string | null {
  const data = view ?? NO_ROUNDS;
  const round = findRound(data, data.current);
  const closesAt = round ? Date.parse(round.closes_at) : undefined;
  const now = useServerNow(data, (at) =>
    closesAt !== undefined && closesAt > at ? closesAt : undefined,
  );
  if (!round || closesAt === undefined || now < closesAt) return null;
  if (isSubmitted(findApplication(data, data.current))) return null;
  return describeRoundClosed(round, data.time_zone);
}
