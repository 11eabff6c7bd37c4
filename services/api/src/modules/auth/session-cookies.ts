import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_MARKER_COOKIE_PREFIX } from '@admissions/api-contract';
import { SESSION_ABSOLUTE_MS } from './sessions';

export interface CookieSettings {
  secure: boolean;
  clientId: string;
}

/** `__Host-` binds the cookie to this exact origin, but browsers accept it only over https. */
export function sessionCookieName(settings: CookieSettings): string {
  return settings.secure ? '__Host-sid' : 'sid';
}

/** The JavaScript-readable marker the SPA uses to know it is logged in (docs/roles.md). No secret. */
export function markerCookieName(settings: CookieSettings): string {
  return `${LOGIN_MARKER_COOKIE_PREFIX}.${settings.clientId}.LastAuthUser`;
}

export function readSessionToken(
  request: FastifyRequest,
  settings: CookieSettings,
): string | undefined {
  const token = request.cookies[sessionCookieName(settings)];
  // Tokens are 43 base64url characters; anything else is not worth a database round trip.
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

export function setLoginCookies(
  reply: FastifyReply,
  settings: CookieSettings,
  token: string,
  email: string,
): void {
  const maxAge = SESSION_ABSOLUTE_MS / 1000;
  reply.setCookie(sessionCookieName(settings), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    maxAge,
  });
  reply.setCookie(markerCookieName(settings), email, {
    httpOnly: false,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    maxAge,
  });
}

export function clearLoginCookies(reply: FastifyReply, settings: CookieSettings): void {
  const options = { path: '/', secure: settings.secure, sameSite: 'lax' as const };
  reply.clearCookie(sessionCookieName(settings), { ...options, httpOnly: true });
  reply.clearCookie(markerCookieName(settings), options);
}

/**
 * The browser's last sign-up (issue #15): a confirmation sent from it gives the account the
 * password chosen in that sign-up. A week, so a code e-mailed again (resends renew it) still
 * finds it.
 */
export const SIGNUP_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

export function signupCookieName(settings: CookieSettings): string {
  return settings.secure ? '__Host-signup' : 'signup';
}

export function setSignupCookie(reply: FastifyReply, settings: CookieSettings, token: string) {
  reply.setCookie(signupCookieName(settings), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: settings.secure,
    path: '/',
    maxAge: SIGNUP_COOKIE_MAX_AGE_S,
  });
}

export function readSignupToken(
  request: FastifyRequest,
  settings: CookieSettings,
): string | undefined {
  const token = request.cookies[signupCookieName(settings)];
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

export function clearSignupCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(signupCookieName(settings), {
    path: '/',
    secure: settings.secure,
    sameSite: 'strict',
    httpOnly: true,
  });
}
