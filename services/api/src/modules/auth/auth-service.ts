import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  firstAuthError,
  normalizeEmail,
  validateAuthForm,
  type AuthFields,
  type AuthForm,
} from '@admissions/form';
import { AUTH_ERROR_CODES, MESSAGES } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { reserveAttempt } from '../../platform/db/attempt-throttle';
import {
  confirmationCodes,
  loginThrottle,
  passwordResets,
  signupCredentials,
  successfulLogins,
  users,
} from './schema';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { generateToken, hashToken } from '../../platform/lib/crypto';
import type { AccountMailRequest } from '../mail';
import { tryConfirmationCode } from './confirmation-codes';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords';
import { createSession, revokeAllSessions } from './sessions';

export { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from './confirmation-codes';
export { RESET_TTL_MS } from './account-mail';
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MAX_SECONDS = 15 * 60;
/** A quiet spell this long forgets earlier failures. */
export const FAILURE_MEMORY_MS = 15 * 60 * 1000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  hmacKey: Buffer;
  /** Queues an account e-mail; the mail worker decides what it says, if anything is sent. */
  requestAccountMail: (request: AccountMailRequest) => Promise<void>;
  /**
   * Creates the applicant's empty application, in the transaction `tx` that confirms the account
   * (the application module's openApplication, handed over by boot/: that module owns the table
   * and depends on this one).
   */
  openApplication: (tx: Db, userId: string) => Promise<void>;
}

function requireValid(form: AuthForm, fields: AuthFields): void {
  const message = firstAuthError(validateAuthForm(form, fields));
  if (message) throw new AppError('VALIDATION_FAILED', message);
}

async function requireUncommonPassword(password: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new AppError('PASSWORD_TOO_COMMON', MESSAGES.passwordTooCommon);
  }
}

/**
 * The public account routes. Each does the same work whatever the address (docs/design-decisions.md, 3: the
 * answers are alike, and so is their timing): every e-mail is decided by the mail worker
 * (auth/account-mail.ts) from a queued request, argon2 runs on every path that takes a
 * password, and each lookup is one statement whichever way it ends.
 */
export function createAuthService(deps: AuthDeps) {
  const { db, clock, hmacKey, requestAccountMail, openApplication } = deps;

  async function findUser(email: string) {
    const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return rows[0];
  }

  return {
    /**
     * Creates the account, or leaves an existing one as it was: a sign-up never changes a
     * password (someone else could sign up with the owner's address). On an account that is not
     * confirmed yet, the password chosen here is kept aside, keyed by `signupToken` (which the
     * route puts in this browser's cookie), until a code from the mailbox confirms the account
     * from this browser. The worker then e-mails a new account its code, an unconfirmed one its
     * live code (saying how a second sign-up is settled), and a confirmed one a notice.
     */
    async signup(input: {
      username: string;
      password: string;
    }): Promise<{ message: string; signupToken: string }> {
      requireValid('signup', input);
      await requireUncommonPassword(input.password);
      const email = normalizeEmail(input.username);
      const passwordHash = await hashPassword(input.password);
      // Made for every address, so the answer (and its cookie) is the same for all of them.
      const signupToken = generateToken();
      // One statement for every outcome. On conflict the row is rewritten unchanged rather than
      // skipped, so both outcomes write (and wait for the same commit flush); xmax = 0 tells a
      // new row from an old one. The first sign-up's password also goes on the account, where it
      // only tells its owner "not confirmed yet" at login until confirmation decides.
      const result = await db.execute<{ created: boolean }>(sql`
        WITH account AS (
          INSERT INTO ${users} (email, password_hash) VALUES (${email}, ${passwordHash})
          ON CONFLICT (email) DO UPDATE SET email = ${users.email}
          RETURNING id, confirmed_at, (xmax = 0) AS created
        ),
        pending AS (
          INSERT INTO ${signupCredentials} (token_hash, user_id, password_hash, created_at)
          SELECT ${hashToken(signupToken)}, id, ${passwordHash}, ${clock.now().toISOString()}::timestamptz
          FROM account WHERE confirmed_at IS NULL
        )
        SELECT created FROM account
      `);
      await requestAccountMail({
        account: { kind: 'signup', email, created: result.rows[0]?.created === true },
      });
      return { message: MESSAGES.signupSent, signupToken };
    },

    /**
     * A code proves the mailbox; the password the account gets is the one chosen in the sign-up
     * made by this browser (`signupToken`, from its cookie). Without it, the only sign-up's
     * password when there was one; when several sign-ups compete, none: the account is confirmed
     * without a password and "Forgot password?" sets one. So whoever signed up with someone
     * else's address never gets their password onto the account through the owner's code.
     */
    async confirm(
      input: { username: string; code: string },
      signupToken?: string,
    ): Promise<string> {
      requireValid('confirm', input);
      const email = normalizeEmail(input.username);
      const now = clock.now();
      const userId = await tryConfirmationCode(db, hmacKey, email, input.code, now);
      if (!userId) throw new AppError('CODE_REJECTED', MESSAGES.codeRejected);
      await db.transaction(async (tx) => {
        const pending = await tx
          .delete(signupCredentials)
          .where(eq(signupCredentials.userId, userId))
          .returning({
            tokenHash: signupCredentials.tokenHash,
            passwordHash: signupCredentials.passwordHash,
          });
        const mine = signupToken
          ? pending.find((credential) => credential.tokenHash === hashToken(signupToken))
          : undefined;
        const chosen = mine ?? (pending.length === 1 ? pending[0] : undefined);
        // No pending row at all: an account from before sign-ups were kept apart keeps its one
        // password.
        const passwordHash = pending.length === 0 ? undefined : (chosen?.passwordHash ?? null);
        await tx
          .update(users)
          .set(
            passwordHash === undefined ? { confirmedAt: now } : { confirmedAt: now, passwordHash },
          )
          .where(eq(users.id, userId));
        await openApplication(tx, userId);
      });
      return MESSAGES.confirmed;
    },

    async resendConfirmation(input: { username: string }): Promise<string> {
      requireValid('resend', input);
      await requestAccountMail({
        account: { kind: 'resend', email: normalizeEmail(input.username) },
      });
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

      const lockedFor = await countAttempt(email, now);
      if (lockedFor !== null) {
        throw new AppError('ACCOUNT_LOCKED', MESSAGES.accountLocked, {
          headers: { 'retry-after': String(Math.max(1, lockedFor)) },
        });
      }
      const user = await findUser(email);
      const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !passwordOk) throw new AppError('LOGIN_FAILED', MESSAGES.loginFailed);
      // The right password: the attempt was not a failure, and the count starts again.
      await db.delete(loginThrottle).where(eq(loginThrottle.email, email));
      if (user.confirmedAt === null) {
        throw new AppError(AUTH_ERROR_CODES.notConfirmed, MESSAGES.notConfirmed);
      }
      const token = await createSession(db, user.id, now);
      await db.insert(successfulLogins).values({ userId: user.id, at: now });
      return { token, email };
    },

    async forgotPassword(input: { username: string }): Promise<string> {
      requireValid('forgot', input);
      await requestAccountMail({
        account: { kind: 'forgot', email: normalizeEmail(input.username) },
      });
      return MESSAGES.forgotSent;
    },

    async resetPassword(input: {
      username: string;
      password: string;
      confirm_password: string;
      id: string;
    }): Promise<string> {
      requireValid('reset', input);
      await requireUncommonPassword(input.password);
      const email = normalizeEmail(input.username);
      const now = clock.now();
      // Hashed before the link is looked at, so a wrong link costs what a right one does.
      const passwordHash = await hashPassword(input.password);
      const userId = await db.transaction(async (tx) => {
        // One statement finds the account and uses the link, whether or not the address exists.
        const used = await tx
          .update(passwordResets)
          .set({ usedAt: now })
          .from(users)
          .where(
            and(
              eq(passwordResets.idHash, hashToken(input.id)),
              eq(users.email, email),
              eq(passwordResets.userId, users.id),
              isNull(passwordResets.usedAt),
              sql`${passwordResets.expiresAt} > ${now.toISOString()}::timestamptz`,
            ),
          )
          .returning({ userId: passwordResets.userId });
        const id = used[0]?.userId;
        if (!id) return null;
        // Following the e-mailed link proves the mailbox, which is what confirmation proves.
        await tx
          .update(users)
          .set({
            passwordHash,
            confirmedAt: sql`COALESCE(${users.confirmedAt}, ${now.toISOString()}::timestamptz)`,
          })
          .where(eq(users.id, id));
        await openApplication(tx, id);
        await tx.delete(loginThrottle).where(eq(loginThrottle.email, email));
        await tx.delete(confirmationCodes).where(eq(confirmationCodes.userId, id));
        await tx.delete(signupCredentials).where(eq(signupCredentials.userId, id));
        return id;
      });
      if (!userId) throw new AppError('RESET_REJECTED', MESSAGES.resetRejected);
      await revokeAllSessions(db, userId, now);
      return MESSAGES.resetDone;
    },
  };

  /**
   * Counts a login attempt BEFORE its password is verified, and from the fifth locks the address
   * for 2^(n-5) s up to 15 minutes (Cognito), in one upsert that refuses to count while a lock
   * runs (platform/db/attempt-throttle.ts): a burst queues on the row, so no more attempts get
   * verified than the count allows. Counted per address, known or not, so an unknown address
   * locks like an account. Returns null when the attempt may go ahead, else the seconds the lock
   * still runs.
   */
  async function countAttempt(email: string, now: Date): Promise<number | null> {
    return reserveAttempt(db, loginThrottle, email, now, {
      threshold: LOCKOUT_THRESHOLD,
      maxLockSeconds: LOCKOUT_MAX_SECONDS,
      memoryMs: FAILURE_MEMORY_MS,
    });
  }
}

export type AuthService = ReturnType<typeof createAuthService>;
