import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  firstAuthError,
  normalizeEmail,
  validateAuthForm,
  type AuthFields,
  type AuthForm,
  type PartnerConfig,
} from '@admissions/form';
import { AUTH_ERROR_CODES, MESSAGES } from '@admissions/api-contract';
import type { Db } from '../db/connect';
import {
  applications,
  confirmationCodes,
  loginThrottle,
  passwordResets,
  successfulLogins,
  users,
} from '../db/schema';
import { AppError } from '../lib/app-error';
import type { Clock } from '../lib/clock';
import { generateCode, generateToken, hashToken, hmac, safeEqualHex } from '../lib/crypto';
import type { MailMessage } from '../mail/mailer';
import {
  renderConfirmationCode,
  renderExistingAccountNotice,
  renderPasswordReset,
} from '../mail/templates';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords';
import { createSession, revokeAllSessions } from './sessions';

// GUIDE §3.4 and Cognito's defaults.
export const CODE_TTL_MS = 24 * 60 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESET_TTL_MS = 60 * 60 * 1000;
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MAX_SECONDS = 15 * 60;
/** A quiet spell this long forgets earlier failures. */
export const FAILURE_MEMORY_MS = 15 * 60 * 1000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  hmacKey: Buffer;
  partner: PartnerConfig;
  publicUrl: string;
  sendMail: (message: MailMessage) => Promise<void>;
}

function requireValid(form: AuthForm, fields: AuthFields): void {
  const message = firstAuthError(validateAuthForm(form, fields));
  if (message) throw new AppError(400, 'VALIDATION_FAILED', message);
}

function requireUncommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError(400, 'PASSWORD_TOO_COMMON', MESSAGES.passwordTooCommon);
  }
}

export function createAuthService(deps: AuthDeps) {
  const { db, clock, hmacKey, partner, publicUrl, sendMail } = deps;

  const codeHash = (userId: string, code: string) => hmac(hmacKey, `${userId}:${code}`);

  async function findUser(email: string) {
    const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return rows[0];
  }

  /** Issues a fresh code; the upsert kills any earlier one (GUIDE §3.4: dead after a resend). */
  async function issueConfirmationCode(userId: string, email: string): Promise<void> {
    const code = generateCode();
    const expiresAt = new Date(clock.now().getTime() + CODE_TTL_MS);
    const hash = codeHash(userId, code);
    await db
      .insert(confirmationCodes)
      .values({ userId, codeHash: hash, expiresAt, attempts: 0 })
      .onConflictDoUpdate({
        target: confirmationCodes.userId,
        set: { codeHash: hash, expiresAt, attempts: 0 },
      });
    await sendMail(renderConfirmationCode(email, code, partner));
  }

  return {
    /**
     * Same answer whether or not the address has an account (GUIDE §3.3): an unconfirmed
     * account takes the new password and a new code; a confirmed one only gets a notice.
     */
    async signup(input: { username: string; password: string }): Promise<string> {
      requireValid('signup', input);
      requireUncommonPassword(input.password);
      const email = normalizeEmail(input.username);
      const passwordHash = await hashPassword(input.password);
      const inserted = await db
        .insert(users)
        .values({ email, passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id });
      const created = inserted[0];
      if (created) {
        await issueConfirmationCode(created.id, email);
        return MESSAGES.signupSent;
      }
      const existing = await findUser(email);
      if (existing && existing.confirmedAt === null) {
        await db.update(users).set({ passwordHash }).where(eq(users.id, existing.id));
        await issueConfirmationCode(existing.id, email);
      } else if (existing) {
        await sendMail(renderExistingAccountNotice(email, `${publicUrl}/login`, partner));
      }
      return MESSAGES.signupSent;
    },

    async confirm(input: { username: string; code: string }): Promise<string> {
      requireValid('confirm', input);
      const email = normalizeEmail(input.username);
      const now = clock.now();
      const reject = () => new AppError(400, 'CODE_REJECTED', MESSAGES.codeRejected);
      const user = await findUser(email);
      if (!user || user.confirmedAt !== null) throw reject();

      const presented = codeHash(user.id, input.code);
      // Single use even under concurrent requests: only one DELETE can return the row.
      const consumed = await db
        .delete(confirmationCodes)
        .where(
          and(
            eq(confirmationCodes.userId, user.id),
            eq(confirmationCodes.codeHash, presented),
            sql`${confirmationCodes.attempts} < ${CODE_MAX_ATTEMPTS}`,
            sql`${confirmationCodes.expiresAt} > ${now.toISOString()}::timestamptz`,
          ),
        )
        .returning({ codeHash: confirmationCodes.codeHash });
      const row = consumed[0];
      if (!row || !safeEqualHex(row.codeHash, presented)) {
        await db
          .update(confirmationCodes)
          .set({ attempts: sql`${confirmationCodes.attempts} + 1` })
          .where(eq(confirmationCodes.userId, user.id));
        throw reject();
      }
      await db.transaction(async (tx) => {
        await tx.update(users).set({ confirmedAt: now }).where(eq(users.id, user.id));
        await tx.insert(applications).values({ userId: user.id }).onConflictDoNothing();
      });
      return MESSAGES.confirmed;
    },

    async resendConfirmation(input: { username: string }): Promise<string> {
      requireValid('resend', input);
      const email = normalizeEmail(input.username);
      const user = await findUser(email);
      if (user && user.confirmedAt === null) await issueConfirmationCode(user.id, email);
      return MESSAGES.resendSent;
    },

    /** Returns the new session token; throws the one refusal message for every failure. */
    async login(input: {
      username: string;
      password: string;
    }): Promise<{ token: string; email: string }> {
      requireValid('login', input);
      const email = normalizeEmail(input.username);
      const now = clock.now();

      const throttle = (
        await db.select().from(loginThrottle).where(eq(loginThrottle.email, email)).limit(1)
      )[0];
      if (throttle?.lockedUntil && throttle.lockedUntil > now) {
        const seconds = Math.ceil((throttle.lockedUntil.getTime() - now.getTime()) / 1000);
        throw new AppError(429, 'ACCOUNT_LOCKED', MESSAGES.accountLocked, {
          'retry-after': String(Math.max(1, seconds)),
        });
      }

      const user = await findUser(email);
      const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !passwordOk) {
        await recordFailure(email, now);
        throw new AppError(401, 'LOGIN_FAILED', MESSAGES.loginFailed);
      }
      if (user.confirmedAt === null) {
        throw new AppError(403, AUTH_ERROR_CODES.notConfirmed, MESSAGES.notConfirmed);
      }
      await db.delete(loginThrottle).where(eq(loginThrottle.email, email));
      const token = await createSession(db, user.id, now);
      await db.insert(successfulLogins).values({ userId: user.id, at: now });
      return { token, email };
    },

    async forgotPassword(input: { username: string }): Promise<string> {
      requireValid('forgot', input);
      const email = normalizeEmail(input.username);
      const user = await findUser(email);
      if (user) {
        const id = generateToken();
        const expiresAt = new Date(clock.now().getTime() + RESET_TTL_MS);
        await db.transaction(async (tx) => {
          // Only the newest link works.
          await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id));
          await tx
            .insert(passwordResets)
            .values({ idHash: hashToken(id), userId: user.id, expiresAt });
        });
        const query = new URLSearchParams({ username: email, id });
        await sendMail(renderPasswordReset(email, `${publicUrl}/reset?${query}`, partner));
      }
      return MESSAGES.forgotSent;
    },

    async resetPassword(input: {
      username: string;
      password: string;
      confirm_password: string;
      id: string;
    }): Promise<string> {
      requireValid('reset', input);
      requireUncommonPassword(input.password);
      const email = normalizeEmail(input.username);
      const now = clock.now();
      const reject = () => new AppError(400, 'RESET_REJECTED', MESSAGES.resetRejected);
      const user = await findUser(email);
      if (!user) throw reject();
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const used = await tx
          .update(passwordResets)
          .set({ usedAt: now })
          .where(
            and(
              eq(passwordResets.idHash, hashToken(input.id)),
              eq(passwordResets.userId, user.id),
              isNull(passwordResets.usedAt),
              sql`${passwordResets.expiresAt} > ${now.toISOString()}::timestamptz`,
            ),
          )
          .returning({ userId: passwordResets.userId });
        if (used.length === 0) throw reject();
        // Following the e-mailed link proves the mailbox, which is what confirmation proves.
        await tx
          .update(users)
          .set({ passwordHash, confirmedAt: user.confirmedAt ?? now })
          .where(eq(users.id, user.id));
        await tx.insert(applications).values({ userId: user.id }).onConflictDoNothing();
        await tx.delete(loginThrottle).where(eq(loginThrottle.email, email));
        await tx.delete(confirmationCodes).where(eq(confirmationCodes.userId, user.id));
      });
      await revokeAllSessions(db, user.id, now);
      return MESSAGES.resetDone;
    },
  };

  /** Counts a failure and, from the fifth, locks for 2^(n-5) s up to 15 minutes (Cognito). */
  async function recordFailure(email: string, now: Date): Promise<void> {
    const nowIso = now.toISOString();
    const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS).toISOString();
    await db.execute(sql`
      INSERT INTO login_throttle (email, failures, locked_until, last_failure_at)
      VALUES (${email}, 1, NULL, ${nowIso}::timestamptz)
      ON CONFLICT (email) DO UPDATE SET
        failures = CASE WHEN login_throttle.last_failure_at < ${forgetBefore}::timestamptz
                        THEN 1 ELSE login_throttle.failures + 1 END,
        last_failure_at = EXCLUDED.last_failure_at
    `);
    await db.execute(sql`
      UPDATE login_throttle
      SET locked_until = ${nowIso}::timestamptz
        + make_interval(secs => LEAST(power(2, failures - ${LOCKOUT_THRESHOLD}), ${LOCKOUT_MAX_SECONDS}))
      WHERE email = ${email} AND failures >= ${LOCKOUT_THRESHOLD}
    `);
  }
}

export type AuthService = ReturnType<typeof createAuthService>;
