// The checklist module's tables (issue #30): the recommenders an applicant named, the items the
// admissions office asked for, and the items it waived. Only this module writes them. The
// checklist itself is computed (checklist-rules.ts); these rows are what it is computed from.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';
// Schema files import each other directly (not through the index): drizzle-kit loads them alone.
import { applications } from '../application/schema';

/**
 * A recommender and their single-purpose link. Only the SHA-256 of the link's token is kept; a
 * change of e-mail replaces it and a removal clears it, so the old link finds no row.
 */
export const recommenders = pgTable(
  'recommenders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    /** Lowercased and trimmed. */
    email: text('email').notNull(),
    /** The applicant's FERPA answer when the invitation went out: the recommender was told it. */
    ferpaWaived: boolean('ferpa_waived').notNull(),
    tokenHash: text('token_hash').unique(),
    /** The same token sealed with AES-256-GCM, so a reminder carries the live link again. */
    tokenSealed: text('token_sealed'),
    linkSentAt: at('link_sent_at').notNull(),
    linkExpiresAt: at('link_expires_at').notNull(),
    removedAt: at('removed_at'),
    /** The structured answers: years known, and in what capacity. */
    knownYears: integer('known_years'),
    capacity: text('capacity'),
    /** A typed letter, or the uploaded one (its source and converted PDF in storage). */
    letterText: text('letter_text'),
    letterFileName: text('letter_file_name'),
    letterSourceKey: text('letter_source_key'),
    letterPdfKey: text('letter_pdf_key'),
    /** Changes with every upload: a conversion job for an older one finds nothing to update. */
    conversionToken: text('conversion_token'),
    /** 'converting' or 'failed' while an uploaded letter is not yet received; null otherwise. */
    conversionStatus: text('conversion_status'),
    conversionMessage: text('conversion_message'),
    /** When the latest upload started converting: the stuck-conversion sweep reads it. */
    conversionStartedAt: at('conversion_started_at'),
    /** The letter was received (typed, or its file converted). */
    submittedAt: at('submitted_at'),
    /** Automatic reminders sent (at most three, a week apart) and when the latest went. */
    autoReminders: integer('auto_reminders').notNull().default(0),
    lastReminderAt: at('last_reminder_at'),
    /** The applicant's own reminders: one a day. */
    applicantRemindedAt: at('applicant_reminded_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('recommenders_type_check', sql`${t.type} IN ('counselor', 'teacher', 'other')`),
    check(
      'recommenders_conversion_check',
      sql`${t.conversionStatus} IS NULL OR ${t.conversionStatus} IN ('converting', 'failed')`,
    ),
    index('recommenders_application_idx').on(t.applicationId),
    // The reminder sweep's scan: live recommenders still owing a letter.
    index('recommenders_due_idx')
      .on(t.lastReminderAt)
      .where(sql`${t.submittedAt} IS NULL AND ${t.removedAt} IS NULL`),
  ],
);

/** An item the office asked the applicant for ("Official transcript"), and the file that came. */
export const checklistRequests = pgTable(
  'checklist_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /** The staff member who asked (their e-mail, as the audit names them). */
    requestedBy: text('requested_by').notNull(),
    requestedAt: at('requested_at').notNull(),
    fileName: text('file_name'),
    sourceKey: text('source_key'),
    pdfKey: text('pdf_key'),
    conversionToken: text('conversion_token'),
    conversionStatus: text('conversion_status'),
    conversionMessage: text('conversion_message'),
    conversionStartedAt: at('conversion_started_at'),
    receivedAt: at('received_at'),
  },
  (t) => [
    check(
      'checklist_requests_conversion_check',
      sql`${t.conversionStatus} IS NULL OR ${t.conversionStatus} IN ('converting', 'failed')`,
    ),
    index('checklist_requests_application_idx').on(t.applicationId),
  ],
);

/** Items the office waived, by checklist item id (`counselor`, `teacher-1`, `request-<id>`, …). */
export const checklistWaivers = pgTable(
  'checklist_waivers',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    waivedBy: text('waived_by').notNull(),
    waivedAt: at('waived_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.itemId] })],
);

/**
 * What happened to an application's checklist, one row per event: a staff request or waiver, a
 * recommender's link sent, opened or used, a reminder. Append-only (a trigger refuses UPDATE,
 * DELETE and TRUNCATE) and without a foreign key, so the trail outlives the application.
 */
export const checklistAudit = pgTable(
  'checklist_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applicationId: uuid('application_id').notNull(),
    action: text('action').notNull(),
    /** Who acted: a staff member's e-mail, or 'applicant', 'recommender', 'system'. */
    actor: text('actor').notNull(),
    /** The checklist item or recommender the event is about. */
    itemId: text('item_id'),
    recommenderId: uuid('recommender_id'),
    ip: text('ip'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('checklist_audit_application_idx').on(t.applicationId, t.createdAt),
    check(
      'checklist_audit_action_check',
      sql`${t.action} IN ('request', 'waiver', 'link-sent', 'link-opened', 'letter-submitted', 'reminder-sent', 'material-received', 'recommender-changed', 'recommender-removed')`,
    ),
  ],
);
