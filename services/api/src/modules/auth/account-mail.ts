import { eq } from 'drizzle-orm';
import type { PartnerConfig } from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { passwordResets, users } from './schema';
import type { Clock } from '../../platform/lib/clock';
import { generateToken, hashToken } from '../../platform/lib/crypto';
import { allowanceKey, takeAllowance, type Allowance } from '../mail';
import type { MailMessage } from '../../platform/mail/mailer';
import {
  renderConfirmationCode,
  renderExistingAccountNotice,
  renderPasswordReset,
  renderSignupAgain,
  type AccountMailRequest,
  type AccountMailResolver,
} from '../mail';
import { issueOrReuseCode } from './confirmation-codes';

export const RESET_TTL_MS = 60 * 60 * 1000;

export interface AccountMailDeps {
  db: Db;
  clock: Clock;
  hmacKey: Buffer;
  partner: PartnerConfig;
  publicUrl: string;
  /** Account e-mails per address (MAIL_PER_ADDRESS_BURST, MAIL_PER_ADDRESS_PER_HOUR). */
  limits: Allowance;
}

/** Turns a request into the message to send, or null when there is none (or the limit is reached). */
export function createAccountMailResolver(deps: AccountMailDeps): AccountMailResolver {
  const { db, clock, hmacKey, partner, publicUrl, limits } = deps;

  return async function resolveAccountMail({
    account: { kind, email, created },
  }: AccountMailRequest): Promise<MailMessage | null> {
    const user = (await db.select().from(users).where(eq(users.email, email)).limit(1))[0];
    if (!user) return null;
    const unconfirmed = user.confirmedAt === null;
    // Only what would be sent counts against the address (nothing goes to unknown addresses, nor
    // a code to a confirmed account). The allowance is taken before any code or reset link is
    // made, so a request past the limit does not replace the link the owner already has.
    if (kind === 'resend' && !unconfirmed) return null;
    const now = clock.now();
    if (!(await takeAllowance(db, allowanceKey(hmacKey, 'mail', email), now, limits))) {
      return null;
    }
    if (kind === 'forgot') {
      const id = generateToken();
      const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
      await db.transaction(async (tx) => {
        // Only the newest link works. The account row is locked first: the mail worker resolves
        // several requests at once, and two deletes that each saw no other link let both of
        // their inserts live.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id));
        await tx
          .insert(passwordResets)
          .values({ idHash: hashToken(id), userId: user.id, expiresAt });
      });
      const query = new URLSearchParams({ username: email, id });
      return renderPasswordReset(email, `${publicUrl}/reset?${query}`, partner);
    }
    if (!unconfirmed) return renderExistingAccountNotice(email, `${publicUrl}/login`, partner);
    const issued = await issueOrReuseCode(db, hmacKey, user.id, now);
    // A second sign-up: the e-mail says which password the code gives the account.
    if (kind === 'signup' && created === false) {
      return renderSignupAgain(email, issued.code, issued.expiresAt, `${publicUrl}/login`, partner);
    }
    return renderConfirmationCode(
      email,
      issued.code,
      partner,
      issued.reused ? issued.expiresAt : null,
    );
  };
}
