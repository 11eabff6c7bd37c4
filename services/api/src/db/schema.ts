import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Lowercased and trimmed: the account key. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  confirmedAt: at('confirmed_at'),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** At most one live code per account: a resend replaces it, so the old one is dead. */
export const confirmationCodes = pgTable('confirmation_codes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: at('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
});

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

/** One application per confirmed account. */
export const applications = pgTable('applications', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  answer: jsonb('answer')
    .$type<Record<string, string>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  /** SSN and alien registration number, each sealed with AES-256-GCM (GUIDE §3.7). */
  sensitive: jsonb('sensitive')
    .$type<Record<string, string>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  lastPage: text('last_page'),
  webStatus: text('web_status')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** The latest error map the SPA posted while validating. */
  validations: jsonb('validations')
    .$type<Record<string, string[]>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  addAnother: jsonb('add_another')
    .$type<Record<string, number>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  tabs: jsonb('tabs')
    .$type<Record<string, string>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  /** Bumped by every change of content, so caches (PDFs, exports) know what is stale. */
  version: integer('version').notNull().default(1),
  submittedAt: at('submitted_at'),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Prefilled answer sets reached by a random link token (GET /public/tmp). */
export const temporaryAnswers = pgTable('temporary_answers', {
  tokenHash: text('token_hash').primaryKey(),
  answer: jsonb('answer').$type<Record<string, string>>().notNull(),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});
