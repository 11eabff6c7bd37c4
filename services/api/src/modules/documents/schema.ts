// The documents module's tables: upload keys, conversions and converted documents. Only this
// module writes them.
import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';
// Schema files import each other directly (not through the index): drizzle-kit loads them alone.
import { applications } from '../application/schema';

/**
 * Upload keys the server handed out (POST /api/presigned-url): a key is bound to one application
 * and one file question, and a conversion may start only from a key issued to that application.
 */
export const documentUploads = pgTable(
  'document_uploads',
  {
    storageKey: text('storage_key').primaryKey(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Set by the local upload endpoint when it takes the file: a link uploads once. */
    uploadedAt: at('uploaded_at'),
    /** Bytes the local endpoint stored (null until then, and always with S3). */
    uploadedBytes: integer('uploaded_bytes'),
    /** Set when a conversion starts from this key: it starts one conversion, once. */
    consumedAt: at('consumed_at'),
    /**
     * Set when the link stopped being in progress without starting a conversion: a newer link
     * for the same question replaced it, or the local endpoint refused its file. It no longer
     * counts against the applicant's uploads in progress, and the local endpoint takes nothing
     * more through it (an S3 link stays usable until it expires: its size still counts).
     */
    releasedAt: at('released_at'),
  },
  (t) => [index('document_uploads_application_idx').on(t.applicationId, t.answerKey)],
);

/**
 * The latest conversion per application and file question (docs/data-model.md statuses). `token` changes with
 * every new upload, so a job for a replaced or deleted conversion finds nothing to update.
 */
export const documentConversions = pgTable(
  'document_conversions',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
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
    primaryKey({ columns: [t.applicationId, t.answerKey] }),
    index('document_conversions_status_idx').on(t.status, t.updatedAt),
  ],
);

/** A converted document: the answer of a file question is ANSWERED while this row exists. */
export const documentAnswers = pgTable(
  'document_answers',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    fileName: text('file_name').notNull(),
    /** Bytes of the file the applicant uploaded (shown to them), not of the PDF. */
    fileSize: integer('file_size').notNull(),
    pdfKey: text('pdf_key').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    /** Pages of the PDF; null for a document converted before previews existed. */
    pageCount: integer('page_count'),
    /** The first page as a small PNG beside the PDF (the applicant's preview); null without one. */
    thumbnailKey: text('thumbnail_key'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.answerKey] })],
);
