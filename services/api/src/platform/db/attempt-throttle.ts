// Sign-in throttles (applicants' login_throttle, staff_login_throttle): one row per key with
// `email` (the key), `failures`, `locked_until`, `last_failure_at`. Each owner module passes its
// own table; this only holds the statement both need, so neither can drift into a check-then-write.
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connect';

export interface AttemptPolicy {
  /** The attempt with this number sets the first lock (2^0 s); each one after doubles it. */
  threshold: number;
  maxLockSeconds: number;
  /** A quiet spell this long forgets earlier failures. */
  memoryMs: number;
}

/**
 * Reserves one attempt under `key` BEFORE anything is verified, in one upsert that refuses while
 * a lock runs and sets the lock from the threshold on (2^(n-threshold) s, capped). Concurrent
 * attempts queue on the row, so no more of them get verified than the count allows, on
 * PostgreSQL as on PGlite. Returns null when the attempt may go ahead, else the seconds the lock
 * still runs (at least 1).
 */
export async function reserveAttempt(
  db: Db,
  table: PgTable,
  key: string,
  now: Date,
  policy: AttemptPolicy,
): Promise<number | null> {
  const t = table;
  const nowIso = now.toISOString();
  const forgetBefore = new Date(now.getTime() - policy.memoryMs).toISOString();
  const failures = sql`CASE WHEN th.last_failure_at < ${forgetBefore}::timestamptz
    THEN 1 ELSE th.failures + 1 END`;
  const counted = await db.execute(sql`
    INSERT INTO ${t} AS th (email, failures, locked_until, last_failure_at)
    VALUES (${key}, 1, NULL, ${nowIso}::timestamptz)
    ON CONFLICT (email) DO UPDATE SET
      failures = ${failures},
      last_failure_at = EXCLUDED.last_failure_at,
      locked_until = CASE WHEN ${failures} >= ${policy.threshold}
        THEN ${nowIso}::timestamptz + make_interval(secs => LEAST(
          power(2, ${failures} - ${policy.threshold}), ${policy.maxLockSeconds}))
        ELSE NULL END
    WHERE th.locked_until IS NULL OR th.locked_until <= ${nowIso}::timestamptz
    RETURNING failures`);
  if (counted.rows.length > 0) return null;
  // Refused: only the Retry-After value is read here, nothing is decided by it.
  const lock = await db.execute<{ locked_until: string | Date | null }>(
    sql`SELECT locked_until FROM ${t} WHERE email = ${key}`,
  );
  const until = lock.rows[0]?.locked_until;
  const seconds = until ? Math.ceil((new Date(until).getTime() - now.getTime()) / 1000) : 1;
  return Math.max(1, seconds);
}

/** Forgets the key's failures (a success). */
export async function clearAttempts(db: Db, table: PgTable, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM ${table} WHERE email = ${key}`);
}
