import { useEffect, useState } from 'react';

/**
 * The device's time, re-read when `until` (ms since the epoch) is reached and every minute before
 * it, so a wait shown in minutes counts down and a button waiting for `until` comes back on time.
 * A new `until` re-reads it at once (the last reading may be old). Null: nothing to wait for.
 */
export function useNow(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const current = Date.now();
    const stale = current - now > 1000;
    if (!stale && until <= current) return;
    const delay = stale ? 0 : Math.min(until - current, 60_000);
    const timer = setTimeout(() => setNow(Date.now()), delay);
    return () => clearTimeout(timer);
  }, [until, now]);
  return now;
}
