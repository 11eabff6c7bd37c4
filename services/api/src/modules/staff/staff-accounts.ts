// Local staff accounts (the embedded default, where no identity provider exists): created by the
// CLI with a one-time set-up link, then password (the applicant rules, argon2id) plus TOTP.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { Authenticator } from '@otplib/core';
import { keyDecoder, keyEncoder } from '@otplib/plugin-base32-enc-dec';
import { createDigest, createRandomBytes } from '@otplib/plugin-crypto';
import { STAFF_MESSAGES, MESSAGES, type StaffRole } from '@admissions/api-contract';
import { isValidEmail, normalizeEmail, validateAuthForm } from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { staffLoginThrottle, staffMembers, staffSessions } from './schema';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { generateToken, hashToken, seal, unseal } from '../../platform/lib/crypto';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth';
import { FAILURE_MEMORY_MS, LOCKOUT_MAX_SECONDS, LOCKOUT_THRESHOLD } from '../auth';
import {
  clearAttempts,
  reserveAttempt,
  type AttemptPolicy,
} from '../../platform/db/attempt-throttle';
import { createStaffSession, revokeAllStaffSessions } from './staff-sessions';

export const STAFF_SETUP_TTL_MS = 24 * 60 * 60 * 1000;
/** The issuer shown in the authenticator app. */
export const TOTP_ISSUER = 'Admissions staff';
const TOTP_STEP_SECONDS = 30;
const STAFF_ATTEMPTS: AttemptPolicy = {
  threshold: LOCKOUT_THRESHOLD,
  maxLockSeconds: LOCKOUT_MAX_SECONDS,
  memoryMs: FAILURE_MEMORY_MS,
};
/**
 * The TOTP step counts under its own key, per member, in the same table: a right password clears
 * the password count (it was no failure) but never this one, so only a right code does.
 */
const totpKey = (staffId: string) => `totp:${staffId}`;

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
   * Reserves an attempt under `key` BEFORE anything is verified (one upsert, so a burst queues on
   * the row and no more guesses are verified than the count allows) and refuses while locked:
   * 2^(n-5) s from the fifth failure, at most 15 minutes, as for applicants.
   */
  async function reserve(key: string, now: Date): Promise<void> {
    const lockedFor = await reserveAttempt(db, staffLoginThrottle, key, now, STAFF_ATTEMPTS);
    if (lockedFor !== null) {
      throw new AppError('ACCOUNT_LOCKED', MESSAGES.accountLocked, {
        headers: { 'retry-after': String(lockedFor) },
      });
    }
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
      await reserve(email, now);
      const member = await findByEmail(email);
      const usable = member && member.source === 'local' && !member.disabledAt ? member : undefined;
      const ok = await verifyPassword(usable?.passwordHash ?? null, input.password);
      if (!usable || !ok) throw new AppError('LOGIN_FAILED', STAFF_MESSAGES.loginFailed);
      // The right password was no failure: an abandoned TOTP step must not lock the member out.
      await clearAttempts(db, staffLoginThrottle, email);
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
     * The TOTP step of a pending sign-in: counted and locked like a password attempt, under its
     * own per-member key; a code works once.
     * Confirms the enrolment on first use. The caller swaps the pending session for a full one.
     */
    async verifyTotp(staffId: string, code: string, pendingIdHash: string): Promise<string> {
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
      await reserve(totpKey(staffId), now);
      const totp = totpAt(now);
      const secret = unseal(encryptionKey, member.totpSecret);
      const delta = /^\d{6}$/.test(code) ? totp.checkDelta(code, secret) : null;
      const step = Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS) + (delta ?? 0);
      const fresh = delta !== null && (member.totpLastStep === null || step > member.totpLastStep);
      const rejected = () => new AppError('TOTP_REJECTED', STAFF_MESSAGES.codeRejected);
      if (!fresh) throw rejected();
      await db.transaction(async (tx) => {
        // The pending session is used up by the first right code: codes of neighbouring steps
        // raced in on one pending session cannot each open a session (a conditional UPDATE, so
        // a concurrent one waits for this and then finds the row revoked).
        const used = await tx
          .update(staffSessions)
          .set({ revokedAt: now })
          .where(
            and(
              eq(staffSessions.idHash, pendingIdHash),
              eq(staffSessions.stage, 'totp'),
              isNull(staffSessions.revokedAt),
            ),
          )
          .returning({ idHash: staffSessions.idHash });
        if (used.length === 0) throw rejected();
        // Only one request can move the step past this one: a code raced in twice works once.
        const updated = await tx
          .update(staffMembers)
          .set({ totpLastStep: step, totpConfirmedAt: member.totpConfirmedAt ?? now })
          .where(
            and(
              eq(staffMembers.id, staffId),
              sql`(${staffMembers.totpLastStep} IS NULL OR ${staffMembers.totpLastStep} < ${step})`,
            ),
          )
          .returning({ id: staffMembers.id });
        // Thrown inside: the pending session's use rolls back with it.
        if (updated.length === 0) throw rejected();
      });
      await clearAttempts(db, staffLoginThrottle, totpKey(staffId));
      return createStaffSession(db, staffId, 'full', now);
    },
  };
}

export type StaffAccounts = ReturnType<typeof createStaffAccounts>;
