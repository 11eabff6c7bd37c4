// The print module's table: the cached application PDFs. Only this module writes it.
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';
// Schema files import each other directly (not through the index): drizzle-kit loads them alone.
import { applications } from '../application/schema';

/** Keys only, never values: what an application PDF shows. */
export interface PdfShownKeys {
  answers: string[];
  documents: string[];
}

/**
 * The generated application PDF, one row per application and audience ('applicant' for GET /api/pdf,
 * 'service' for GET /service/pdf), for one version of the application (applications.version).
 * `token` names the generation job, so a job for a superseded version changes nothing.
 */
export const applicationPdfs = pgTable(
  'application_pdfs',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    audience: text('audience').notNull(),
    version: integer('version').notNull(),
    /** UNPROCESSED, IN_PROGRESS, COMPLETED or FAILED (docs/data-model.md PDF statuses). */
    status: text('status').notNull(),
    token: text('token').notNull(),
    /** The stored PDF of the latest completed generation (kept until a newer one replaces it). */
    storageKey: text('storage_key'),
    pdfSize: integer('pdf_size'),
    /**
     * What the stored PDF shows (answer keys of its rows and document keys, no values), for the
     * audit of a cached copy's download; null on rows from before it was kept (read as a miss).
     */
    shown: jsonb('shown').$type<PdfShownKeys>(),
    message: text('message').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.applicationId, t.audience] }),
    index('application_pdfs_status_idx').on(t.status, t.updatedAt),
  ],
);
