import { lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { addressThrottle } from './schema';
import { hmac } from '../../platform/lib/crypto';

export interface Allowance {
  /** Taken at once. */
  burst: number;
  /** How fast it refills, per hour. */
  perHour: number;
}

/** A bucket this long untouched is full again at any configurable rate: housekeeping drops it. */
export const ADDRESS_THROTTLE_MEMORY_MS = 24 * 60 * 60 * 1000;

/** The row key of an address's allowance of one kind: an HMAC, so the table holds no address. */
export function allowanceKey(
  hmacKey: Buffer,
  /** mail: e-mails to an address; confirm: code attempts; invite: an application's invitations. */
  kind: 'mail' | 'confirm' | 'invite',
  subject: string,
): string {
  return `${kind}:${hmac(hmacKey, `address-throttle:${kind}:${subject}`)}`;
}

/**
 * The upsert that takes one from a token bucket (`burst` at once, refilled at `perHour`); it
 * returns the row only when there was one to take. One statement, so two concurrent requests
 * cannot both take the last one. Also used inside a larger statement (confirmation codes).
 */
export function takeAllowanceSql(key: string, now: Date, allowance: Allowance): SQL {
  const nowIso = now.toISOString();
  const perSecond = allowance.perHour / 3600;
  const refilled = sql`LEAST(${allowance.burst}::double precision, ${addressThrottle.tokens}
    + GREATEST(0, EXTRACT(EPOCH FROM (${nowIso}::timestamptz - ${addressThrottle.updatedAt})))
    * ${perSecond}::double precision)`;
  return sql`
    INSERT INTO ${addressThrottle} (key, tokens, updated_at)
    VALUES (${key}, ${allowance.burst - 1}, ${nowIso}::timestamptz)
    ON CONFLICT (key) DO UPDATE SET tokens = ${refilled} - 1, updated_at = ${nowIso}::timestamptz
    WHERE ${refilled} >= 1
    RETURNING key`;
}

/** Takes one from the allowance and says whether there was one. */
export async function takeAllowance(
  db: Db,
  key: string,
  now: Date,
  allowance: Allowance,
): Promise<boolean> {
  const taken = await db.execute(takeAllowanceSql(key, now, allowance));
  return taken.rows.length > 0;
}

/** Address allowances untouched for a day are full again: the row says nothing any more. */
export async function deleteStaleAddressThrottles(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .delete(addressThrottle)
    .where(lt(addressThrottle.updatedAt, new Date(now.getTime() - ADDRESS_THROTTLE_MEMORY_MS)))
    .returning({ key: addressThrottle.key });
  return deleted.length;
}
