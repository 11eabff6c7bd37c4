// Staff sessions: server-side rows like applicants' (idle 15 min, absolute 12 h), in their own
// table and cookie, so an applicant's `sid` never opens the staff area and a staff cookie never
// opens /api.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { staffMembers, staffSessions } from './schema';
import { generateToken, hashToken } from '../../platform/lib/crypto';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../auth';

/** A password-checked sign-in waiting for its TOTP code lives this long. */
export const STAFF_PENDING_MS = 5 * 60 * 1000;

export type StaffSessionStage = 'full' | 'totp';

export interface StaffUser {
  staffId: string;
  email: string;
  role: StaffRole;
  stage: StaffSessionStage;
  sessionIdHash: string;
}

export async function createStaffSession(
  db: Db,
  staffId: string,
  stage: StaffSessionStage,
  now: Date,
): Promise<string> {
  const token = generateToken();
  const lifetime = stage === 'full' ? SESSION_ABSOLUTE_MS : STAFF_PENDING_MS;
  await db.insert(staffSessions).values({
    idHash: hashToken(token),
    staffId,
    stage,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + lifetime),
  });
  return token;
}

/** The live session's staff member (not disabled), sliding the idle timer; null otherwise. */
export async function resolveStaffSession(
  db: Db,
  token: string,
  now: Date,
): Promise<StaffUser | null> {
  const idHash = hashToken(token);
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS);
  const result = await db.execute<{
    staff_id: string;
    email: string;
    role: StaffRole;
    stage: StaffSessionStage;
  }>(sql`
    UPDATE ${staffSessions} s SET last_seen_at = ${now}
    FROM ${staffMembers} m
    WHERE s.id_hash = ${idHash} AND m.id = s.staff_id
      AND s.revoked_at IS NULL AND s.last_seen_at > ${idleCutoff} AND s.expires_at > ${now}
      AND m.disabled_at IS NULL
    RETURNING s.staff_id, m.email, m.role, s.stage`);
  const row = result.rows[0];
  return row
    ? {
        staffId: row.staff_id,
        email: row.email,
        role: row.role,
        stage: row.stage,
        sessionIdHash: idHash,
      }
    : null;
}

export async function revokeStaffSession(db: Db, idHash: string, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.idHash, idHash), isNull(staffSessions.revokedAt)));
}

export async function revokeAllStaffSessions(db: Db, staffId: string, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)));
}

export interface StaffCookieSettings {
  secure: boolean;
}

/** Its own name, so it never collides with the applicant's `sid`; `__Host-` over https. */
export function staffCookieName(settings: StaffCookieSettings): string {
  return settings.secure ? '__Host-staff_sid' : 'staff_sid';
}

export function readStaffToken(
  request: FastifyRequest,
  settings: StaffCookieSettings,
): string | undefined {
  const token = request.cookies[staffCookieName(settings)];
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

/**
 * SameSite=Strict: no cross-site request ever carries it. The OIDC callback arrives from the
 * provider (cross-site), which is why it sets the cookie and then redirects instead of reading it.
 */
export function setStaffCookie(
  reply: FastifyReply,
  settings: StaffCookieSettings,
  token: string,
): void {
  reply.setCookie(staffCookieName(settings), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: settings.secure,
    path: '/',
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearStaffCookie(reply: FastifyReply, settings: StaffCookieSettings): void {
  reply.clearCookie(staffCookieName(settings), {
    path: '/',
    secure: settings.secure,
    sameSite: 'strict',
    httpOnly: true,
  });
}
