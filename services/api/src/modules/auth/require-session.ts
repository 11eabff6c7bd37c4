import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@admissions/api-contract';
import type { RootDb } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { clearLoginCookies, readSessionToken, type CookieSettings } from './session-cookies';
import { resolveSession, type SessionUser } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser: SessionUser | null;
  }
}

/**
 * The check of an `applicant` route (auth/session-gate.ts): a live server-side session or 401. The marker cookie alone
 * grants nothing; a dead session also clears both cookies so the SPA stops believing it.
 */
export type RequireSession = ReturnType<typeof createRequireSession>;

export function createRequireSession(db: RootDb, clock: Clock, cookies: CookieSettings) {
  return async function requireSession(request: FastifyRequest, reply: FastifyReply) {
    const token = readSessionToken(request, cookies);
    const user = token ? await resolveSession(db, token, clock.now()) : null;
    if (!user) {
      clearLoginCookies(reply, cookies);
      throw new AppError('SESSION_INVALID', MESSAGES.sessionInvalid);
    }
    request.sessionUser = user;
  };
}

export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new AppError('SESSION_INVALID', MESSAGES.sessionInvalid);
  return request.sessionUser;
}
