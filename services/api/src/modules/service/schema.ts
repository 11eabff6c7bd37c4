// The service module's table: the staff read audit. Only this module writes it.
import { sql } from 'drizzle-orm';
import { bigserial, check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

/**
 * Every staff read (docs/design-decisions.md, 8): which token read which application, when, and which answer and
 * document keys it was shown, never their values. Append-only: a trigger (migration
 * 0004_print_and_pdf) refuses UPDATE, DELETE and TRUNCATE. No foreign key to applications or users,
 * so deleting an account neither deletes nor is blocked by its audit trail.
 */
export const serviceAudit = pgTable(
  'service_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: text('token_id').notNull(),
    /**
     * The application read (before rounds: its applicant's id, which migration 0014 kept as the
     * application's id). No foreign key, so the trail outlives the application and its account.
     */
    applicationId: uuid('application_id').notNull(),
    /**
     * 'print-view' (GET /service/tmp-pdf), 'pdf' (GET /service/pdf, a staff PDF export's
     * download), 'checklist' (staff), 'data-export' (a staff data export's download) or
     * 'sensitive-export' (SSN and alien registration number decrypted into a data export, with
     * the reason).
     */
    action: text('action').notNull(),
    shown: jsonb('shown').$type<{ answers: string[]; documents: string[] }>().notNull(),
    ip: text('ip'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The staff member who read (staff area), or null for a token handed out by the CLI or API. */
    staffId: uuid('staff_id'),
    staffEmail: text('staff_email'),
    /** The API key whose service token read (POST /service/tokens), or null. */
    apiKeyId: uuid('api_key_id'),
    /** Why protected answers were exported ('sensitive-export'), as the exporter wrote it. */
    reason: text('reason'),
  },
  (t) => [
    index('service_audit_application_idx').on(t.applicationId, t.createdAt),
    index('service_audit_token_idx').on(t.tokenId),
    check(
      'service_audit_action_check',
      sql`${t.action} IN ('print-view', 'pdf', 'checklist', 'data-export', 'sensitive-export')`,
    ),
  ],
);
