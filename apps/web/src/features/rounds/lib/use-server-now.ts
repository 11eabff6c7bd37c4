import { useEffect, useState } from 'react';
import type { ServerClock } from './round-clock';

/** setTimeout's longest delay (about 24.8 days): a later change is looked at again after it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The server's time (ms), read again when `nextChangeAt(now)` comes and only then: a page
 * re-renders when what it shows changes (a phase, a second of the countdown), not on a steady
 * tick. The device's clock is read in timers only; at render the latest reading (or the moment
 * the rounds arrived, if later) is corrected by the measured offset.
 */
export function useServerNow(
  clock: ServerClock,
  nextChangeAt: (now: number) => number | undefined,
): number {
  const [read, setRead] = useState(() => Date.now());
  const { clockOffsetMs: offset } = clock;
  const now = Math.max(read, clock.receivedAt) + offset;
  const next = nextChangeAt(now);
  useEffect(() => {
    if (next === undefined) return;
    const delay = Math.min(Math.max(next - (Date.now() + offset), 0), MAX_TIMER_MS);
    const timer = window.setTimeout(() => setRead(Date.now()), delay);
    return () => window.clearTimeout(timer);
  }, [next, now, offset]);
  return now;
}
