// The staff module's tables. Only this module writes them.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

// Staff area (issue #18): staff members (local or from the identity provider), their sessions,
// their sign-in throttle, the campus systems' API keys and each exporter's last export.

export const staffMembers = pgTable(
  'staff_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lowercased and trimmed. */
    email: text('email').notNull().unique(),
    role: text('role').notNull(),
    /** 'local' (password + TOTP) or 'oidc' (created on first sign-in through the provider). */
    source: text('source').notNull(),
    passwordHash: text('password_hash'),
    /** The TOTP secret, sealed with AES-256-GCM; confirmed once a valid code was entered. */
    totpSecret: text('totp_secret'),
    totpConfirmedAt: at('totp_confirmed_at'),
    /** The last accepted TOTP time step: a code works once (RFC 6238 §5.2). */
    totpLastStep: integer('totp_last_step'),
    /** The one-time set-up link's token (hashed) printed by `staff add`. */
    setupTokenHash: text('setup_token_hash'),
    setupExpiresAt: at('setup_expires_at'),
    disabledAt: at('disabled_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('staff_members_role_check', sql`${t.role} IN ('reader', 'exporter', 'processor')`),
    check('staff_members_source_check', sql`${t.source} IN ('local', 'oidc')`),
  ],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    /** 'full', or 'totp' while a local sign-in waits for its second factor. */
    stage: text('stage').notNull(),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('staff_sessions_staff_idx').on(t.staffId)],
);

/** Failed staff sign-ins per e-mail address, known or not (as login_throttle for applicants). */
export const staffLoginThrottle = pgTable('staff_login_throttle', {
  email: text('email').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: at('locked_until'),
  lastFailureAt: at('last_failure_at').notNull(),
});

/** Campus systems' client credentials: only the SHA-256 of the key is kept. */
export const staffApiKeys = pgTable(
  'staff_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [check('staff_api_keys_scope_check', sql`${t.scope} IN ('read', 'export', 'write-ids')`)],
);

/**
 * Exports started from the staff area: the existing export run (export/run.ts) in the exporter's
 * own folder under DATA_DIR/staff-exports/<staff id>, so "only what changed since this exporter's
 * last export" is that folder's state file, as for the CLI.
 */
export const staffExports = pgTable(
  'staff_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    filters: jsonb('filters').$type<Record<string, string>>().notNull(),
    force: integer('force').notNull().default(0),
    /** A data export that decrypted the SSN and alien registration number (the reason is audited). */
    includeSensitive: boolean('include_sensitive').notNull().default(false),
    /** running | completed | failed */
    status: text('status').notNull(),
    selected: integer('selected').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    rendered: integer('rendered').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    message: text('message').notNull().default(''),
    /** The zip or combined PDF, absolute path, once completed. */
    filePath: text('file_path'),
    createdAt: at('created_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('staff_exports_staff_idx').on(t.staffId, t.createdAt),
    // One running export per exporter, decided by the insert itself: concurrent starts used to
    // pass a check each and run side by side in the one folder.
    uniqueIndex('staff_exports_one_running')
      .on(t.staffId)
      .where(sql`${t.status} = 'running'`),
    check(
      'staff_exports_format_check',
      sql`${t.format} IN ('zip', 'combined', 'csv', 'json', 'ndjson')`,
    ),
  ],
);

/**
 * Every list or search of applications (each shows applicants' names and e-mail addresses): who
 * (a staff member, or an API key), when, the filters and query, how many matched. Append-only
 * like service_audit (trigger in migration 0011_staff_races).
 */
export const staffListAudit = pgTable(
  'staff_list_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** A staff member's list (the staff area) … */
    staffId: uuid('staff_id'),
    staffEmail: text('staff_email'),
    /** … or a campus system's (GET /service/applications). No foreign keys: the trail outlives both. */
    apiKeyId: uuid('api_key_id'),
    /** The query as received: q, status, from, to, sort, page, page_size. */
    query: jsonb('query').$type<Record<string, unknown>>().notNull(),
    /** Matches under the filters (the list's `total`), and the rows this page showed. */
    total: integer('total').notNull(),
    shown: integer('shown').notNull(),
    ip: text('ip'),
  },
  (t) => [index('staff_list_audit_created_idx').on(t.createdAt)],
);
