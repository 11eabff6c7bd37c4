import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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

/**
 * Allowances per e-mail address (token buckets, issue #15), known address or not: the account
 * e-mails it may still get (`mail:` keys), so anonymous requests cannot flood a mailbox, and the
 * confirmation codes that may still be tried for it (`confirm:` keys). Keyed by an HMAC of the
 * address, so no address is stored.
 */
export const addressThrottle = pgTable('address_throttle', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedAt: at('updated_at').notNull(),
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
export const applications = pgTable(
  'applications',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    answer: jsonb('answer')
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** SSN and alien registration number, each sealed with AES-256-GCM (docs/design-decisions.md, 7). */
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
    /**
     * The staff list's search text: name keys and e-mail folded by staff_fold() (lowercase, no
     * accents). Kept by a trigger (migration 0005_staff) on every write of `answer`, so every write
     * path — autosave, prefill, submit — keeps it current, and concurrent saves of different name
     * keys cannot leave it stale.
     */
    staffSearchText: text('staff_search_text').notNull().default(''),
    /** The staff list's name order ("last first", folded), kept by the same trigger. */
    staffSortName: text('staff_sort_name').notNull().default(''),
    /** started | validating | submitted, derived from the row so counts can use an index. */
    staffStatus: text('staff_status').generatedAlwaysAs(
      sql`CASE WHEN submitted_at IS NOT NULL THEN 'submitted' WHEN 'validating' = ANY(web_status) THEN 'validating' ELSE 'started' END`,
    ),
  },
  (t) => [
    index('applications_staff_search_idx').using('gin', t.staffSearchText.op('gin_trgm_ops')),
    index('applications_staff_status_idx').on(
      t.staffStatus,
      t.submittedAt.desc().nullsLast(),
      t.userId,
    ),
    index('applications_staff_sort_name_idx').on(t.staffSortName, t.userId),
    index('applications_staff_submitted_idx').on(t.submittedAt.desc().nullsLast(), t.userId),
  ],
);

/** Prefilled answer sets reached by a random link token (GET /public/tmp). */
export const temporaryAnswers = pgTable('temporary_answers', {
  tokenHash: text('token_hash').primaryKey(),
  answer: jsonb('answer').$type<Record<string, string>>().notNull(),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * Upload keys the server handed out (POST /api/presigned-url): a key is bound to one applicant
 * and one file question, and a conversion may start only from a key issued to that applicant.
 */
export const documentUploads = pgTable(
  'document_uploads',
  {
    storageKey: text('storage_key').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Set by the local upload endpoint when it takes the file: a link uploads once. */
    uploadedAt: at('uploaded_at'),
    /** Bytes the local endpoint stored (null until then, and always with S3). */
    uploadedBytes: integer('uploaded_bytes'),
    /** Set when a conversion starts from this key: it starts one conversion, once. */
    consumedAt: at('consumed_at'),
  },
  (t) => [index('document_uploads_user_idx').on(t.userId, t.answerKey)],
);

/**
 * The latest conversion per applicant and file question (docs/data-model.md statuses). `token` changes with
 * every new upload, so a job for a replaced or deleted conversion finds nothing to update.
 */
export const documentConversions = pgTable(
  'document_conversions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    token: text('token').notNull(),
    status: text('status').notNull(),
    message: text('message').notNull().default(''),
    sourceKey: text('source_key').notNull(),
    fileName: text('file_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.answerKey] }),
    index('document_conversions_status_idx').on(t.status, t.updatedAt),
  ],
);

/** A converted document: the answer of a file question is ANSWERED while this row exists. */
export const documentAnswers = pgTable(
  'document_answers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    fileName: text('file_name').notNull(),
    /** Bytes of the file the applicant uploaded (shown to them), not of the PDF. */
    fileSize: integer('file_size').notNull(),
    pdfKey: text('pdf_key').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.answerKey] })],
);

/**
 * The generated application PDF, one row per applicant and audience ('applicant' for GET /api/pdf,
 * 'service' for GET /service/pdf), for one version of the application (applications.version).
 * `token` names the generation job, so a job for a superseded version changes nothing.
 */
export const applicationPdfs = pgTable(
  'application_pdfs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    audience: text('audience').notNull(),
    version: integer('version').notNull(),
    /** UNPROCESSED, IN_PROGRESS, COMPLETED or FAILED (docs/data-model.md PDF statuses). */
    status: text('status').notNull(),
    token: text('token').notNull(),
    /** The stored PDF of the latest completed generation (kept until a newer one replaces it). */
    storageKey: text('storage_key'),
    pdfSize: integer('pdf_size'),
    message: text('message').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.audience] }),
    index('application_pdfs_status_idx').on(t.status, t.updatedAt),
  ],
);

/**
 * Every staff read (docs/design-decisions.md, 8): which token read which applicant, when, and which answer and
 * document keys it was shown, never their values. Append-only: a trigger (migration
 * 0004_print_and_pdf) refuses UPDATE, DELETE and TRUNCATE. No foreign key to users, so deleting
 * an account neither deletes nor is blocked by its audit trail.
 */
export const serviceAudit = pgTable(
  'service_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: text('token_id').notNull(),
    userId: uuid('user_id').notNull(),
    /** 'print-view' (GET /service/tmp-pdf) or 'pdf' (GET /service/pdf). */
    action: text('action').notNull(),
    shown: jsonb('shown').$type<{ answers: string[]; documents: string[] }>().notNull(),
    ip: text('ip'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The staff member who read (staff area), or null for a token handed out by the CLI or API. */
    staffId: uuid('staff_id'),
    staffEmail: text('staff_email'),
  },
  (t) => [
    index('service_audit_user_idx').on(t.userId, t.createdAt),
    index('service_audit_token_idx').on(t.tokenId),
    check('service_audit_action_check', sql`${t.action} IN ('print-view', 'pdf')`),
  ],
);

// Lookups (docs/data-model.md autocomplete categories): one table per category. `search_text` is the name
// lowercased, unaccented and reduced to letters, digits and single spaces by normalizeSearchText()
// in JS at import time, so both drivers compare the same bytes. A text_pattern_ops btree serves
// prefix matches; a pg_trgm GIN index serves word-prefix and fuzzy matches.
const lookupSearchIndexes = (table: string, searchText: ExtraConfigColumn) => [
  index(`${table}_prefix_idx`).on(searchText.op('text_pattern_ops')),
  index(`${table}_trgm_idx`).using('gin', searchText.op('gin_trgm_ops')),
];

const schoolColumns = () => ({
  /** The CEEB code (or an institution's own code): the upsert key of `lookup import`. */
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  street: text('street').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  zip: text('zip').notNull().default(''),
  country: text('country').notNull().default('USA'),
  searchText: text('search_text').notNull(),
  /** 'sample' rows ship with the embedded default; the first real import of a category removes them. */
  source: text('source').notNull().default('import'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const lookupHighSchools = pgTable('lookup_high_schools', schoolColumns(), (t) =>
  lookupSearchIndexes('lookup_high_schools', t.searchText),
);

export const lookupColleges = pgTable('lookup_colleges', schoolColumns(), (t) =>
  lookupSearchIndexes('lookup_colleges', t.searchText),
);

/** Addresses for ADDRESS_PROVIDER=database (an institution's own address file). */
export const lookupAddresses = pgTable(
  'lookup_addresses',
  {
    id: text('id').primaryKey(),
    addressLine1: text('address_line_1').notNull(),
    addressLine2: text('address_line_2').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    country: text('country').notNull().default('USA'),
    searchText: text('search_text').notNull(),
    source: text('source').notNull().default('import'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => lookupSearchIndexes('lookup_addresses', t.searchText),
);

/**
 * Every word of every lookup row's search_text, with the row it came from (`source` is the lookup
 * table's name, `key` the row's code or id). The word tier of the search walks this index in
 * search_text order, so "truth" finds "Sojourner Truth …" without rechecking thousands of rows.
 * Rebuilt by lookup-import.ts after every import; never written by requests.
 */
export const lookupWords = pgTable(
  'lookup_words',
  {
    source: text('source').notNull(),
    word: text('word').notNull(),
    searchText: text('search_text').notNull(),
    key: text('key').notNull(),
  },
  // No primary key: rows are only ever inserted DISTINCT by the rebuild, and this one index serves
  // every read.
  (t) => [
    index('lookup_words_order_idx').on(
      t.source,
      t.word,
      t.searchText.op('text_pattern_ops'),
      t.key.op('text_pattern_ops'),
    ),
  ],
);

/** The distinct words per lookup table: prefix expansion and typo correction of typed words. */
export const lookupVocabulary = pgTable(
  'lookup_vocabulary',
  {
    source: text('source').notNull(),
    word: text('word').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.word] }),
    index('lookup_vocabulary_prefix_idx').on(t.source, t.word.op('text_pattern_ops')),
    // fastupdate off: a freshly rebuilt vocabulary is searched at once, and GIN's pending list
    // (unmerged until the next vacuum) made each typo lookup scan it linearly (5 ms instead of 0.15).
    index('lookup_vocabulary_trgm_idx')
      .using('gin', t.word.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
  ],
);

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
    check('staff_members_role_check', sql`${t.role} IN ('reader', 'exporter')`),
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
  (t) => [check('staff_api_keys_scope_check', sql`${t.scope} IN ('read', 'export')`)],
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
    check('staff_exports_format_check', sql`${t.format} IN ('zip', 'combined')`),
  ],
);
