// The application module's tables. Only this module writes them: `applications` carries the
// version every cache of an application keys on (application-store.ts applies the rule once).
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';
// Schema files import each other directly (not through the index): drizzle-kit loads them alone.
import { users } from '../auth/schema';
import { rounds } from '../rounds/schema';

/**
 * An applicant's application in one admission round: at most one per applicant and round. The
 * applicant's current application (the one /api/profile, /api/answer, … act on) is their row
 * with the latest `chosenAt`. Applications from before rounds kept their applicant's id as their
 * own (migration 0014), so links and tokens that named the applicant still name the application.
 */
export const applications = pgTable(
  'applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roundCode: text('round_code')
      .notNull()
      .references(() => rounds.code),
    /** When the applicant last chose (or started) this application: the latest is the current one. */
    chosenAt: at('chosen_at').notNull().defaultNow(),
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
    /**
     * The student information system's ID for this application, from its return feed
     * (`PUT /service/applications/{id}/external-id`, `npm run cli -- import-ids`). One application
     * per ID, whatever its letter case (unique index on upper()).
     */
    externalId: text('external_id'),
    /** started | validating | submitted, derived from the row so counts can use an index. */
    staffStatus: text('staff_status').generatedAlwaysAs(
      sql`CASE WHEN submitted_at IS NOT NULL THEN 'submitted' WHEN 'validating' = ANY(web_status) THEN 'validating' ELSE 'started' END`,
    ),
  },
  (t) => [
    unique('applications_user_round_unique').on(t.userId, t.roundCode),
    uniqueIndex('applications_external_id_idx').on(sql`upper(${t.externalId})`),
    index('applications_user_chosen_idx').on(t.userId, t.chosenAt.desc()),
    index('applications_staff_search_idx').using('gin', t.staffSearchText.op('gin_trgm_ops')),
    index('applications_staff_status_idx').on(
      t.staffStatus,
      t.submittedAt.desc().nullsLast(),
      t.id,
    ),
    index('applications_staff_sort_name_idx').on(t.staffSortName, t.id),
    index('applications_staff_submitted_idx').on(t.submittedAt.desc().nullsLast(), t.id),
  ],
);

/** Prefilled answer sets reached by a random link token (GET /public/tmp). */
export const temporaryAnswers = pgTable('temporary_answers', {
  tokenHash: text('token_hash').primaryKey(),
  answer: jsonb('answer').$type<Record<string, string>>().notNull(),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});
