import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, RootDb } from '../../platform/db/connect';
import { sessions } from './schema';
import { generateToken, hashToken } from '../../platform/lib/crypto';
import { prepareStatement, runPrepared } from '../../platform/db/prepared';

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

// Fixed texts, prepared once per connection (platform/db/prepared.ts): every signed-in request
// runs the first. A read alone; the write is a second statement once a minute per session (a
// data-modifying CTE in the read made every check cost the planning and start-up of an UPDATE).
const READ_SESSION = prepareStatement(
  'auth_session_read',
  `SELECT s.user_id, u.email, s.last_seen_at FROM sessions s JOIN users u ON u.id = s.user_id
   WHERE s.id_hash = $1 AND s.revoked_at IS NULL AND s.last_seen_at > $2 AND s.expires_at > $3`,
);
const SLIDE_SESSION = prepareStatement(
  'auth_session_slide',
  `UPDATE sessions SET last_seen_at = $2
   WHERE id_hash = $1 AND revoked_at IS NULL AND last_seen_at <= $3`,
);

/**
 * The session's user if the token is live — null when unknown, revoked, idle for 15 minutes or
 * past its 12 hours. It reads the session and, only when the stored idle timer is older than
 * SESSION_SLIDE_INTERVAL_MS, moves it to now. Revocation is read on every request, so a
 * logged-out session is refused at once.
 */
export async function resolveSession(
  db: RootDb,
  token: string,
  now: Date,
): Promise<SessionUser | null> {
  const idHash = hashToken(token);
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS);
  const [row] = await runPrepared<{ user_id: string; email: string; last_seen_at: Date }>(
    db,
    READ_SESSION,
    [idHash, idleCutoff, now],
  );
  if (!row) return null;
  const slideBefore = new Date(now.getTime() - SESSION_SLIDE_INTERVAL_MS);
  if (row.last_seen_at.getTime() <= slideBefore.getTime()) {
    await runPrepared(db, SLIDE_SESSION, [idHash, now, slideBefore]);
  }
  return { userId: row.user_id, email: row.email, sessionIdHash: idHash };
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
