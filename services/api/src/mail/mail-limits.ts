import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { mailThrottle } from '../db/schema';

export interface MailLimits {
  /** Account e-mails one address can get at once. */
  burst: number;
  /** How fast the allowance refills, in e-mails per hour. */
  perHour: number;
}

/** A bucket this long untouched is full again at any configurable rate: housekeeping drops it. */
export const MAIL_THROTTLE_MEMORY_MS = 24 * 60 * 60 * 1000;

/**
 * Takes one e-mail from the recipient's allowance (a token bucket: `burst` at once, refilled at
 * `perHour`) and says whether there was one. One upsert, so concurrent workers cannot both take
 * the last e-mail. The key is an HMAC of the address: the table holds no addresses.
 */
export async function takeMailAllowance(
  db: Db,
  recipientKey: string,
  now: Date,
  limits: MailLimits,
): Promise<boolean> {
  const nowIso = now.toISOString();
  const perSecond = limits.perHour / 3600;
  const refilled = sql`LEAST(${limits.burst}::double precision, ${mailThrottle.tokens}
    + GREATEST(0, EXTRACT(EPOCH FROM (${nowIso}::timestamptz - ${mailThrottle.updatedAt}))) * ${perSecond}::double precision)`;
  const taken = await db
    .insert(mailThrottle)
    .values({ recipientKey, tokens: limits.burst - 1, updatedAt: now })
    .onConflictDoUpdate({
      target: mailThrottle.recipientKey,
      set: { tokens: sql`${refilled} - 1`, updatedAt: now },
      setWhere: sql`${refilled} >= 1`,
    })
    .returning({ tokens: mailThrottle.tokens });
  return taken.length > 0;
}
