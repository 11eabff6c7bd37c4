import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { sessions, users } from '../db/schema';
import { generateToken, hashToken } from '../lib/crypto';

/** GUIDE §3.2: sliding idle limit and absolute lifetime, both enforced here, not by the cookie. */
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
 * The session's user if the token is live, refreshing its idle timer in the same statement;
 * null when unknown, revoked, idle for 15 minutes or past its 12 hours.
 */
export async function resolveSession(
  db: Db,
  token: string,
  now: Date,
): Promise<SessionUser | null> {
  const idHash = hashToken(token);
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS);
  const rows = await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .from(users)
    .where(
      and(
        eq(sessions.idHash, idHash),
        eq(users.id, sessions.userId),
        isNull(sessions.revokedAt),
        gt(sessions.lastSeenAt, idleCutoff),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ userId: sessions.userId, email: users.email });
  const row = rows[0];
  return row ? { ...row, sessionIdHash: idHash } : null;
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
