import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { sessions, users } from './schema';
import { generateToken, hashToken } from '../../platform/lib/crypto';

/** docs/design-decisions.md, 2: sliding idle limit and absolute lifetime, both enforced here, not by the cookie. */
export const SESSION_IDLE_MS = 15 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

export interface SessionUser {
  userId: string;
  email: string;
  sessionIdHash: string;
}

export async function createSession(db: Db, userId: string, now: Date): Promise<string> {
  const token = generateToken();
  await db.insert(sessions).values({
    idHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return token;
}

/**
 * How stale the stored idle timer may get. Writing it on every request made each autosave two
 * durable writes; sliding it at most once a minute keeps the 15-minute rule exact to within
 * that minute while most requests only read the session.
 */
export const SESSION_SLIDE_INTERVAL_MS = 60 * 1000;

/**
 * The session's user if the token is live — null when unknown, revoked, idle for 15 minutes or
 * past its 12 hours. One statement: it reads the session and, only when the stored idle timer is
 * older than SESSION_SLIDE_INTERVAL_MS, moves it to now (an UPDATE that matches no row writes
 * nothing). Revocation is read on every request, so a logged-out session is refused at once.
 */
export async function resolveSession(
  db: Db,
  token: string,
  now: Date,
): Promise<SessionUser | null> {
  const idHash = hashToken(token);
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS);
  const slideBefore = new Date(now.getTime() - SESSION_SLIDE_INTERVAL_MS);
  const result = await db.execute<{ user_id: string; email: string }>(sql`
    WITH live AS (
      SELECT ${sessions.userId} AS user_id, ${users.email} AS email, ${sessions.lastSeenAt} AS last_seen_at
      FROM ${sessions} JOIN ${users} ON ${users.id} = ${sessions.userId}
      WHERE ${sessions.idHash} = ${idHash}
        AND ${sessions.revokedAt} IS NULL
        AND ${sessions.lastSeenAt} > ${idleCutoff}
        AND ${sessions.expiresAt} > ${now}
    ), slid AS (
      UPDATE ${sessions} SET last_seen_at = ${now}
      WHERE ${sessions.idHash} = ${idHash}
        AND EXISTS (SELECT 1 FROM live WHERE live.last_seen_at <= ${slideBefore})
      RETURNING 1
    )
    SELECT user_id, email FROM live`);
  const row = result.rows[0];
  return row ? { userId: row.user_id, email: row.email, sessionIdHash: idHash } : null;
}

export async function revokeSession(db: Db, idHash: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.idHash, idHash), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Housekeeping: drops rows that can never be valid again; returns how many. */
export async function deleteDeadSessions(db: Db, now: Date): Promise<number> {
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS);
  const deleted = await db
    .delete(sessions)
    .where(
      sql`${sessions.revokedAt} IS NOT NULL OR ${sessions.expiresAt} <= ${now} OR ${sessions.lastSeenAt} <= ${idleCutoff}`,
    )
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}
