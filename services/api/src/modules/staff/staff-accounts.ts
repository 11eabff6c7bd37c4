// Local staff accounts (the embedded default, where no identity provider exists): created by the
// CLI with a one-time set-up link, then password (the applicant rules, argon2id) plus TOTP.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { Authenticator } from '@otplib/core';
import { keyDecoder, keyEncoder } from '@otplib/plugin-base32-enc-dec';
import { createDigest, createRandomBytes } from '@otplib/plugin-crypto';
import { STAFF_MESSAGES, MESSAGES, type StaffRole } from '@admissions/api-contract';
import { isValidEmail, normalizeEmail, validateAuthForm } from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { staffLoginThrottle, staffMembers } from './schema';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { generateToken, hashToken, seal, unseal } from '../../platform/lib/crypto';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth';
import { FAILURE_MEMORY_MS, LOCKOUT_MAX_SECONDS, LOCKOUT_THRESHOLD } from '../auth';
import { createStaffSession, revokeAllStaffSessions } from './staff-sessions';

export const STAFF_SETUP_TTL_MS = 24 * 60 * 60 * 1000;
/** The issuer shown in the authenticator app. */
export const TOTP_ISSUER = 'Admissions staff';
const TOTP_STEP_SECONDS = 30;

export type StaffMember = typeof staffMembers.$inferSelect;

export interface StaffAccountDeps {
  db: Db;
  clock: Clock;
  encryptionKey: Buffer;
}

/**
 * otplib's authenticator with the base32 plugin that uses Buffer.from: the `otplib` preset's
 * (thirty-two) calls the deprecated `new Buffer()`, a DEP0005 warning in the server's log at every
 * enrolment and code check.
 */
const authenticator = new Authenticator({
  createDigest,
  createRandomBytes,
  keyDecoder,
  keyEncoder,
});

/** otplib at the service's clock (tests move it), accepting the previous and next step too. */
function totpAt(now: Date) {
  return authenticator.clone({ epoch: now.getTime(), window: 1, step: TOTP_STEP_SECONDS });
}

export function createStaffAccounts(deps: StaffAccountDeps) {
  const { db, clock, encryptionKey } = deps;

  async function findByEmail(email: string): Promise<StaffMember | undefined> {
    const rows = await db.select().from(staffMembers).where(eq(staffMembers.email, email)).limit(1);
    return rows[0];
  }

  /**
   * Counts the attempt BEFORE checking anything (so parallel guesses cannot all slip in under the
   * limit) and refuses while locked: 2^(n-5) s from the fifth failure, at most 15 minutes, as
   * for applicants. A success clears the counter.
   */
  async function countAttempt(email: string, now: Date): Promise<void> {
    const nowIso = now.toISOString();
    const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS).toISOString();
    const locked = await db.execute<{ locked_until: string | Date | null }>(sql`
      SELECT locked_until FROM staff_login_throttle
      WHERE email = ${email} AND locked_until > ${nowIso}::timestamptz`);
    const until = locked.rows[0]?.locked_until;
    if (until) {
      const seconds = Math.ceil((new Date(until).getTime() - now.getTime()) / 1000);
      throw new AppError('ACCOUNT_LOCKED', MESSAGES.accountLocked, {
        headers: { 'retry-after': String(Math.max(1, seconds)) },
      });
    }
    await db.execute(sql`
      INSERT INTO staff_login_throttle (email, failures, locked_until, last_failure_at)
      VALUES (${email}, 1, NULL, ${nowIso}::timestamptz)
      ON CONFLICT (email) DO UPDATE SET
        failures = CASE WHEN staff_login_throttle.last_failure_at < ${forgetBefore}::timestamptz
                        THEN 1 ELSE staff_login_throttle.failures + 1 END,
        last_failure_at = EXCLUDED.last_failure_at`);
    await db.execute(sql`
      UPDATE staff_login_throttle
      SET locked_until = ${nowIso}::timestamptz
        + make_interval(secs => LEAST(power(2, failures - ${LOCKOUT_THRESHOLD}), ${LOCKOUT_MAX_SECONDS}))
      WHERE email = ${email} AND failures >= ${LOCKOUT_THRESHOLD}`);
  }

  async function clearAttempts(email: string): Promise<void> {
    await db.delete(staffLoginThrottle).where(eq(staffLoginThrottle.email, email));
  }

  return {
    findByEmail,

    /** `staff add`: a new local member with a set-up token (returned once), or a usage error. */
    async add(input: {
      email: string;
      role: StaffRole;
    }): Promise<{ member: StaffMember; setupToken: string }> {
      const email = normalizeEmail(input.email);
      if (!isValidEmail(email)) throw new AppError('VALIDATION_FAILED', 'Not an e-mail address.');
      const setupToken = generateToken();
      const inserted = await db
        .insert(staffMembers)
        .values({
          email,
          role: input.role,
          source: 'local',
          setupTokenHash: hashToken(setupToken),
          setupExpiresAt: new Date(clock.now().getTime() + STAFF_SETUP_TTL_MS),
        })
        .onConflictDoNothing({ target: staffMembers.email })
        .returning();
      const member = inserted[0];
      if (!member) throw new AppError('STAFF_EXISTS', `A staff member ${email} exists already.`);
      return { member, setupToken };
    },

    async list(): Promise<StaffMember[]> {
      return db.select().from(staffMembers).orderBy(asc(staffMembers.email));
    },

    /** Disables the member and ends every session at once; false when there is no such member. */
    async disable(rawEmail: string): Promise<boolean> {
      const now = clock.now();
      const updated = await db
        .update(staffMembers)
        .set({ disabledAt: now })
        .where(
          and(eq(staffMembers.email, normalizeEmail(rawEmail)), isNull(staffMembers.disabledAt)),
        )
        .returning({ id: staffMembers.id });
      const row = updated[0];
      if (row) await revokeAllStaffSessions(db, row.id, now);
      return row !== undefined;
    },

    /** POST /staff/auth/setup: sets the password once; the link dies with it. */
    async setup(input: {
      token: string;
      password: string;
      confirm_password: string;
    }): Promise<void> {
      const now = clock.now();
      const reject = () => new AppError('SETUP_REJECTED', STAFF_MESSAGES.setupRejected);
      const rows = await db
        .select()
        .from(staffMembers)
        .where(eq(staffMembers.setupTokenHash, hashToken(input.token)))
        .limit(1);
      const member = rows[0];
      if (!member || member.disabledAt || !member.setupExpiresAt || member.setupExpiresAt <= now) {
        throw reject();
      }
      const errors = validateAuthForm('reset', {
        username: member.email,
        password: input.password,
        confirm_password: input.confirm_password,
        id: 'setup',
      });
      const message = errors.password?.[0] ?? errors.confirm_password?.[0];
      if (message) throw new AppError('VALIDATION_FAILED', message);
      if (await isCommonPassword(input.password)) {
        throw new AppError('PASSWORD_TOO_COMMON', MESSAGES.passwordTooCommon);
      }
      const passwordHash = await hashPassword(input.password);
      // Single use: only the UPDATE that still finds the token sets the password.
      const updated = await db
        .update(staffMembers)
        .set({ passwordHash, setupTokenHash: null, setupExpiresAt: null })
        .where(eq(staffMembers.setupTokenHash, hashToken(input.token)))
        .returning({ id: staffMembers.id });
      if (updated.length === 0) throw reject();
    },

    /**
     * The password step. Returns a pending session (stage 'totp') and, on the first sign-in, a
     * fresh TOTP secret to enrol; the second factor completes the sign-in.
     */
    async login(input: { email: string; password: string }): Promise<{
      token: string;
      enrol: { otpauth_uri: string; secret: string } | null;
    }> {
      const email = normalizeEmail(input.email);
      const now = clock.now();
      await countAttempt(email, now);
      const member = await findByEmail(email);
      const usable = member && member.source === 'local' && !member.disabledAt ? member : undefined;
      const ok = await verifyPassword(usable?.passwordHash ?? null, input.password);
      if (!usable || !ok) throw new AppError('LOGIN_FAILED', STAFF_MESSAGES.loginFailed);
      let enrol: { otpauth_uri: string; secret: string } | null = null;
      if (!usable.totpConfirmedAt) {
        // A new secret on every unfinished enrolment: one shown earlier and never confirmed dies.
        const secret = authenticator.generateSecret(20);
        await db
          .update(staffMembers)
          .set({ totpSecret: seal(encryptionKey, secret) })
          .where(eq(staffMembers.id, usable.id));
        enrol = { otpauth_uri: authenticator.keyuri(email, TOTP_ISSUER, secret), secret };
      }
      const token = await createStaffSession(db, usable.id, 'totp', now);
      return { token, enrol };
    },

    /**
     * The TOTP step of a pending sign-in: counted like a password attempt; a code works once.
     * Confirms the enrolment on first use. The caller swaps the pending session for a full one.
     */
    async verifyTotp(staffId: string, code: string): Promise<string> {
      const now = clock.now();
      const rows = await db
        .select()
        .from(staffMembers)
        .where(eq(staffMembers.id, staffId))
        .limit(1);
      const member = rows[0];
      if (!member || member.disabledAt || !member.totpSecret) {
        throw new AppError('STAFF_SESSION_INVALID', STAFF_MESSAGES.sessionInvalid);
      }
      await countAttempt(member.email, now);
      const totp = totpAt(now);
      const secret = unseal(encryptionKey, member.totpSecret);
      const delta = /^\d{6}$/.test(code) ? totp.checkDelta(code, secret) : null;
      const step = Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS) + (delta ?? 0);
      const fresh = delta !== null && (member.totpLastStep === null || step > member.totpLastStep);
      if (!fresh) throw new AppError('TOTP_REJECTED', STAFF_MESSAGES.codeRejected);
      // Only one request can move the step past this one: a code raced in twice works once.
      const updated = await db
        .update(staffMembers)
        .set({ totpLastStep: step, totpConfirmedAt: member.totpConfirmedAt ?? now })
        .where(
          and(
            eq(staffMembers.id, staffId),
            sql`(${staffMembers.totpLastStep} IS NULL OR ${staffMembers.totpLastStep} < ${step})`,
          ),
        )
        .returning({ id: staffMembers.id });
      if (updated.length === 0) throw new AppError('TOTP_REJECTED', STAFF_MESSAGES.codeRejected);
      await clearAttempts(member.email);
      return createStaffSession(db, staffId, 'full', now);
    },
  };
}

export type StaffAccounts = ReturnType<typeof createStaffAccounts>;
