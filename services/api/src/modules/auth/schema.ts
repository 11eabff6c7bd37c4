// The auth module's tables: accounts, their sign-up credentials, codes, resets, sessions, logins
// and login throttles. Only this module writes them.
import { bigserial, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Lowercased and trimmed: the account key. */
  email: text('email').notNull().unique(),
  /** Null when no password is set: confirmed by an older sign-up's code, until a reset sets one. */
  passwordHash: text('password_hash'),
  confirmedAt: at('confirmed_at'),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** At most one live code per account: it proves the mailbox, whichever sign-up asked for it. */
export const confirmationCodes = pgTable('confirmation_codes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: at('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
});

/**
 * The password chosen in each sign-up on an account that is not confirmed yet (issue #15), keyed
 * by the hash of a token kept in the signing-up browser's cookie. A password takes effect only
 * when the account is confirmed with a code from the mailbox by the browser that chose it (or,
 * when there was only one sign-up, with no cookie): someone who signs up with another person's
 * address cannot have the account confirmed with their password.
 */
export const signupCredentials = pgTable(
  'signup_credentials',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('signup_credentials_user_idx').on(t.userId)],
);

export const passwordResets = pgTable('password_resets', {
  idHash: text('id_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

/**
 * Failed logins are counted per e-mail address, known or not, so a locked-out unknown address
 * looks exactly like a locked-out account.
 */
export const loginThrottle = pgTable('login_throttle', {
  email: text('email').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: at('locked_until'),
  lastFailureAt: at('last_failure_at').notNull(),
});

export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const successfulLogins = pgTable(
  'successful_logins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: at('at').notNull(),
  },
  (t) => [index('successful_logins_user_idx').on(t.userId, t.at)],
);
