import { useEffect, useState } from 'react';

/** setTimeout's longest delay; a later `until` is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * The device's time, re-read when `until` (ms since the epoch) is reached — and, with
 * `everyMinute`, each minute before it, so a wait shown in minutes counts down. A new `until`
 * re-reads it at once (the last reading may be old). Null: nothing to wait for, no timer.
 */
export function useNow(until: number | null, { everyMinute = false } = {}): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const current = Date.now();
    const stale = current - now > 1000;
    if (!stale && until <= current) return;
    const left = until - current;
    const delay = stale ? 0 : Math.min(left, everyMinute ? 60_000 : MAX_DELAY_MS);
    const timer = setTimeout(() => setNow(Date.now()), delay);
    return () => clearTimeout(timer);
  }, [until, now, everyMinute]);
  return now;
}
