import type { FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_MESSAGES, type StaffRole } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import {
  clearStaffCookie,
  readStaffToken,
  resolveStaffSession,
  staffCookieName,
  type StaffCookieSettings,
  type StaffSessionStage,
  type StaffUser,
} from './staff-sessions';

declare module 'fastify' {
  interface FastifyRequest {
    staffUser: StaffUser | null;
  }
}

/**
 * The staff session the request carries at `stage`, or null. Only the staff cookie is read, so an
 * applicant's session (cookie `sid`) is never considered here; a staff cookie naming no live
 * session is cleared.
 */
export function createFindStaff(
  db: Db,
  clock: Clock,
  cookies: StaffCookieSettings,
  stage: StaffSessionStage = 'full',
) {
  return async function findStaff(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<StaffUser | null> {
    const token = readStaffToken(request, cookies);
    const user = token ? await resolveStaffSession(db, token, clock.now()) : null;
    if (!user && request.cookies[staffCookieName(cookies)] !== undefined) {
      clearStaffCookie(reply, cookies);
    }
    return user?.stage === stage ? user : null;
  };
}

/** preHandler for staff routes: a live staff session at `stage` or 401. */
export function createRequireStaff(
  db: Db,
  clock: Clock,
  cookies: StaffCookieSettings,
  stage: StaffSessionStage = 'full',
) {
  const findStaff = createFindStaff(db, clock, cookies, stage);
  return async function requireStaff(request: FastifyRequest, reply: FastifyReply) {
    const user = await findStaff(request, reply);
    if (!user) throw new AppError('STAFF_SESSION_INVALID', STAFF_MESSAGES.sessionInvalid);
    request.staffUser = user;
  };
}

export function currentStaff(request: FastifyRequest): StaffUser {
  if (!request.staffUser) {
    throw new AppError('STAFF_SESSION_INVALID', STAFF_MESSAGES.sessionInvalid);
  }
  return request.staffUser;
}

export function requireRole(request: FastifyRequest, role: StaffRole): StaffUser {
  const user = currentStaff(request);
  // `reader` is any staff member; a narrower role (exporter, processor) is that role only.
  if (role !== 'reader' && user.role !== role) {
    throw new AppError('STAFF_FORBIDDEN', STAFF_MESSAGES.forbidden);
  }
  return user;
}
