import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { confirmationCodes, users } from './schema';
import { hmac, safeEqualHex } from '../../platform/lib/crypto';
import { allowanceKey, takeAllowanceSql, type Allowance } from '../mail';

// docs/design-decisions.md, 4 and Cognito's defaults.
export const CODE_TTL_MS = 24 * 60 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Codes tried for one address, whatever its codes: a code dies after 5 wrong tries, and new codes
 * come only by e-mail (itself limited per address), so this seldom binds; it caps guessing across
 * codes and gives unknown addresses the same work as accounts.
 */
export const CONFIRM_TRIES_PER_ADDRESS: Allowance = { burst: 60, perHour: 60 };
/** A code with less life than this left is not sent again: a new one replaces it. */
export const CODE_MIN_RESEND_LIFE_MS = 30 * 60 * 1000;

export function hashCode(hmacKey: Buffer, userId: string, code: string): string {
  return hmac(hmacKey, `${userId}:${code}`);
}

/**
 * The code of an account follows from the server key, the account and the code's expiry, so a
 * resend can e-mail the live code again instead of replacing it (a resend used to kill the code
 * the owner was about to type). Nothing weaker than before: whoever holds the key and the table
 * could already find a 6-digit code from its HMAC in a million tries.
 */
function deriveCode(hmacKey: Buffer, userId: string, expiresAt: Date): string {
  const digest = hmac(hmacKey, `confirmation-code:${userId}:${expiresAt.toISOString()}`);
  // 48 bits mod 10^6: the bias is below one in 10^8.
  return (Number.parseInt(digest.slice(0, 12), 16) % 1_000_000).toString().padStart(6, '0');
}

/**
 * The account's live code, or a new one when there is none (never issued, used up by 5 wrong
 * tries, expired or about to). One upsert decides, so two workers never issue two codes.
 */
export async function issueOrReuseCode(
  db: Db,
  hmacKey: Buffer,
  userId: string,
  now: Date,
): Promise<{ code: string; expiresAt: Date; reused: boolean }> {
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  const freshUntil = new Date(now.getTime() + CODE_MIN_RESEND_LIFE_MS).toISOString();
  const code = deriveCode(hmacKey, userId, expiresAt);
  const codeHash = hashCode(hmacKey, userId, code);
  const issued = await db
    .insert(confirmationCodes)
    .values({ userId, codeHash, expiresAt, attempts: 0 })
    .onConflictDoUpdate({
      target: confirmationCodes.userId,
      set: { codeHash, expiresAt, attempts: 0 },
      setWhere: sql`${confirmationCodes.expiresAt} <= ${freshUntil}::timestamptz
        OR ${confirmationCodes.attempts} >= ${CODE_MAX_ATTEMPTS}`,
    })
    .returning({ userId: confirmationCodes.userId });
  if (issued.length > 0) return { code, expiresAt, reused: false };
  const live = await db
    .select({ expiresAt: confirmationCodes.expiresAt })
    .from(confirmationCodes)
    .where(eq(confirmationCodes.userId, userId))
    .limit(1);
  const liveExpiry = live[0]?.expiresAt ?? expiresAt;
  return { code: deriveCode(hmacKey, userId, liveExpiry), expiresAt: liveExpiry, reused: true };
}

/**
 * Counts a try BEFORE the code is compared, in one UPDATE that also checks the account, the
 * expiry and the 5 tries: a burst of guesses queues on the row and no more than 5 are compared
 * (the count used to be raised after a failed comparison, so a burst compared them all). Returns
 * the account when the presented code is its code and this call consumed it (single use).
 */
export async function tryConfirmationCode(
  db: Db,
  hmacKey: Buffer,
  email: string,
  code: string,
  now: Date,
): Promise<string | null> {
  // The address's allowance of tries is taken in the same statement, for every address, known
  // or not: so every outcome writes and waits for the same durable commit (the WAL flush, ~6 ms
  // on this machine's PostgreSQL). Counting only on the code row let an unknown address answer
  // in 1 ms and an account with a live code in 7.
  const allowance = takeAllowanceSql(
    allowanceKey(hmacKey, 'confirm', email),
    now,
    CONFIRM_TRIES_PER_ADDRESS,
  );
  const result = await db.execute<{ user_id: string | null; code_hash: string | null }>(sql`
    WITH allowed AS (${allowance}),
    claimed AS (
      UPDATE ${confirmationCodes} SET attempts = ${confirmationCodes.attempts} + 1
      FROM ${users}
      WHERE ${users.email} = ${email}
        AND ${confirmationCodes.userId} = ${users.id}
        AND ${users.confirmedAt} IS NULL
        AND ${confirmationCodes.attempts} < ${CODE_MAX_ATTEMPTS}
        AND ${confirmationCodes.expiresAt} > ${now.toISOString()}::timestamptz
        AND EXISTS (SELECT 1 FROM allowed)
      RETURNING ${confirmationCodes.userId} AS user_id, ${confirmationCodes.codeHash} AS code_hash
    )
    SELECT claimed.user_id, claimed.code_hash FROM (VALUES (1)) AS one LEFT JOIN claimed ON true
  `);
  const found = result.rows[0];
  const row =
    found?.user_id && found.code_hash ? { userId: found.user_id, codeHash: found.code_hash } : null;
  const presented = hashCode(hmacKey, row?.userId ?? '00000000-0000-0000-0000-000000000000', code);
  // Compared even without a row, so an unknown address costs the same.
  const matches = safeEqualHex(row?.codeHash ?? presented.replace(/./g, '0'), presented);
  if (!row || !matches) return null;
  // Only one DELETE can return the row, so the code works once even for concurrent requests.
  const consumed = await db
    .delete(confirmationCodes)
    .where(and(eq(confirmationCodes.userId, row.userId), eq(confirmationCodes.codeHash, presented)))
    .returning({ userId: confirmationCodes.userId });
  return consumed[0]?.userId ?? null;
}
