import type { FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_MESSAGES, type StaffRole } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import {
  clearStaffCookie,
  readStaffToken,
  resolveStaffSession,
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
 * preHandler for staff routes: a live staff session at `stage` or 401. Only the staff cookie is
 * read, so an applicant's session (cookie `sid`) is never considered here.
 */
export function createRequireStaff(
  db: Db,
  clock: Clock,
  cookies: StaffCookieSettings,
  stage: StaffSessionStage = 'full',
) {
  return async function requireStaff(request: FastifyRequest, reply: FastifyReply) {
    const token = readStaffToken(request, cookies);
    const user = token ? await resolveStaffSession(db, token, clock.now()) : null;
    if (!user || user.stage !== stage) {
      if (!user) clearStaffCookie(reply, cookies);
      throw new AppError('STAFF_SESSION_INVALID', STAFF_MESSAGES.sessionInvalid);
    }
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
  if (role === 'exporter' && user.role !== 'exporter') {
    throw new AppError('STAFF_FORBIDDEN', STAFF_MESSAGES.forbidden);
  }
  return user;
}
