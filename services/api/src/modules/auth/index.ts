// The auth module's public entry point: other modules and boot/ import only from here.
export { createAccountMailResolver } from './account-mail';
export { findAccountByEmail, findAccountById, type Account } from './accounts';
export { authRoutes } from './auth-routes';
export {
  FAILURE_MEMORY_MS,
  LOCKOUT_MAX_SECONDS,
  LOCKOUT_THRESHOLD,
  createAuthService,
} from './auth-service';
export {
  HOUSEKEEPING_QUEUE,
  startHousekeepingWorker,
  type HousekeepingSweep,
} from './housekeeping';
export { hashPassword, isCommonPassword, verifyPassword } from './passwords';
export { createRequireSession, currentUser, type RequireSession } from './require-session';
export { type CookieSettings } from './session-cookies';
export { registerSessionGate } from './session-gate';
export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './sessions';
export {
  users,
  confirmationCodes,
  signupCredentials,
  passwordResets,
  loginThrottle,
  sessions,
  successfulLogins,
} from './schema';
