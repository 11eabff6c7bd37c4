// Persistence of uploads, conversions and document answers. Every statement is keyed by the
// session's user id; the conversion token makes a job's late writes harmless.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { ConversionStatus } from '@admissions/api-contract';
import type { Db } from '../db/connect';
import { applications, documentAnswers, documentConversions, documentUploads } from '../db/schema';
import { jsonb } from '../application/application-store';

export type ConversionRow = typeof documentConversions.$inferSelect;
export type DocumentAnswerRow = typeof documentAnswers.$inferSelect;

/** Statuses that still wait for a worker. */
export const PENDING_STATUSES: readonly ConversionStatus[] = ['UNPROCESSED', 'IN_PROGRESS'];

export function createDocumentStore(db: Db) {
  const conversionOf = (userId: string, answerKey: string) =>
    and(eq(documentConversions.userId, userId), eq(documentConversions.answerKey, answerKey));
  const answerOf = (userId: string, answerKey: string) =>
    and(eq(documentAnswers.userId, userId), eq(documentAnswers.answerKey, answerKey));

  /** Sets (or clears) one answer of an application that is not submitted; a frozen one is left alone. */
  const setAnswer = (tx: Db, userId: string, answerKey: string, value: string, now: Date) =>
    tx
      .update(applications)
      .set({
        answer: sql`${applications.answer} || ${jsonb({ [answerKey]: value })}`,
        version: sql`${applications.version} + 1`,
        updatedAt: now,
      })
      .where(sql`${applications.userId} = ${userId} AND ${applications.submittedAt} IS NULL`);

  return {
    async recordUpload(userId: string, answerKey: string, storageKey: string, expiresAt: Date) {
      await db.insert(documentUploads).values({ storageKey, userId, answerKey, expiresAt });
    },

    /** The upload, if it was issued to this applicant for this question. */
    async findUpload(userId: string, answerKey: string, storageKey: string) {
      const [row] = await db
        .select()
        .from(documentUploads)
        .where(
          and(
            eq(documentUploads.storageKey, storageKey),
            eq(documentUploads.userId, userId),
            eq(documentUploads.answerKey, answerKey),
          ),
        )
        .limit(1);
      return row;
    },

    /** Issued keys whose link expired and that no conversion uses (their blobs can go). */
    async takeExpiredUploads(now: Date, limit = 100): Promise<string[]> {
      const rows = await db
        .delete(documentUploads)
        .where(
          sql`${documentUploads.storageKey} IN (
            SELECT u.storage_key FROM document_uploads u
            WHERE u.expires_at < ${now.toISOString()}::timestamptz
              AND NOT EXISTS (SELECT 1 FROM document_conversions c WHERE c.source_key = u.storage_key)
            LIMIT ${limit})`,
        )
        .returning({ key: documentUploads.storageKey });
      return rows.map((r) => r.key);
    },

    async deleteUpload(storageKey: string) {
      await db.delete(documentUploads).where(eq(documentUploads.storageKey, storageKey));
    },

    async findConversion(userId: string, answerKey: string): Promise<ConversionRow | undefined> {
      const [row] = await db
        .select()
        .from(documentConversions)
        .where(conversionOf(userId, answerKey))
        .limit(1);
      return row;
    },

    async listPendingConversions(userId: string, answerKeys: string[]): Promise<ConversionRow[]> {
      if (answerKeys.length === 0) return [];
      return db
        .select()
        .from(documentConversions)
        .where(
          and(
            eq(documentConversions.userId, userId),
            inArray(documentConversions.answerKey, answerKeys),
            inArray(documentConversions.status, [...PENDING_STATUSES]),
          ),
        );
    },

    /** Starts a new conversion, replacing any earlier one; returns the replaced row's source key. */
    async startConversion(row: {
      userId: string;
      answerKey: string;
      token: string;
      sourceKey: string;
      fileName: string;
      now: Date;
    }): Promise<void> {
      const values = {
        userId: row.userId,
        answerKey: row.answerKey,
        token: row.token,
        status: 'UNPROCESSED',
        message: '',
        sourceKey: row.sourceKey,
        fileName: row.fileName,
        createdAt: row.now,
        updatedAt: row.now,
      };
      await db
        .insert(documentConversions)
        .values(values)
        .onConflictDoUpdate({
          target: [documentConversions.userId, documentConversions.answerKey],
          set: values,
        });
    },

    /** A worker takes the conversion; undefined when it was replaced, deleted or swept. */
    async claimConversion(
      userId: string,
      answerKey: string,
      token: string,
      now: Date,
    ): Promise<ConversionRow | undefined> {
      const [row] = await db
        .update(documentConversions)
        .set({ status: 'IN_PROGRESS', updatedAt: now })
        .where(
          and(
            conversionOf(userId, answerKey),
            eq(documentConversions.token, token),
            inArray(documentConversions.status, [...PENDING_STATUSES]),
          ),
        )
        .returning();
      return row;
    },

    /**
     * Records the converted document and sets the answer to ANSWERED, if the conversion is still
     * the current one. Returns the replaced document's PDF key, or 'stale'.
     */
    async completeConversion(
      row: ConversionRow,
      document: { fileSize: number; pdfKey: string; pdfSize: number },
      now: Date,
    ): Promise<{ previousPdfKey: string | null } | 'stale'> {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .update(documentConversions)
          .set({ status: 'COMPLETED', message: '', updatedAt: now })
          .where(
            and(
              conversionOf(row.userId, row.answerKey),
              eq(documentConversions.token, row.token),
              eq(documentConversions.status, 'IN_PROGRESS'),
            ),
          )
          .returning({ token: documentConversions.token });
        if (!current) return 'stale';
        const [previous] = await tx
          .select({ pdfKey: documentAnswers.pdfKey })
          .from(documentAnswers)
          .where(answerOf(row.userId, row.answerKey))
          .for('update');
        const values = {
          userId: row.userId,
          answerKey: row.answerKey,
          fileName: row.fileName,
          fileSize: document.fileSize,
          pdfKey: document.pdfKey,
          pdfSize: document.pdfSize,
          createdAt: now,
        };
        await tx
          .insert(documentAnswers)
          .values(values)
          .onConflictDoUpdate({
            target: [documentAnswers.userId, documentAnswers.answerKey],
            set: values,
          });
        await setAnswer(tx as unknown as Db, row.userId, row.answerKey, 'ANSWERED', now);
        return { previousPdfKey: previous?.pdfKey ?? null };
      });
    },

    /**
     * Marks the conversion FAILED with the reason and clears the answer and any earlier document
     * (SPEC §4). Returns the removed document's PDF key; 'stale' when the conversion moved on.
     */
    async failConversion(
      row: Pick<ConversionRow, 'userId' | 'answerKey' | 'token'>,
      message: string,
      now: Date,
    ): Promise<{ removedPdfKey: string | null } | 'stale'> {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .update(documentConversions)
          .set({ status: 'FAILED', message, updatedAt: now })
          .where(
            and(
              conversionOf(row.userId, row.answerKey),
              eq(documentConversions.token, row.token),
              inArray(documentConversions.status, [...PENDING_STATUSES]),
            ),
          )
          .returning({ token: documentConversions.token });
        if (!current) return 'stale';
        const [removed] = await tx
          .delete(documentAnswers)
          .where(answerOf(row.userId, row.answerKey))
          .returning({ pdfKey: documentAnswers.pdfKey });
        await setAnswer(tx as unknown as Db, row.userId, row.answerKey, '', now);
        return { removedPdfKey: removed?.pdfKey ?? null };
      });
    },

    /** Conversions stuck in a pending status since before `cutoff` (a worker died or hung). */
    async listStuckConversions(cutoff: Date, limit = 100): Promise<ConversionRow[]> {
      return db
        .select()
        .from(documentConversions)
        .where(
          and(
            inArray(documentConversions.status, [...PENDING_STATUSES]),
            lt(documentConversions.updatedAt, cutoff),
          ),
        )
        .limit(limit);
    },

    async deleteConversion(userId: string, answerKey: string): Promise<ConversionRow | undefined> {
      const [row] = await db
        .delete(documentConversions)
        .where(conversionOf(userId, answerKey))
        .returning();
      return row;
    },

    async listDocumentAnswers(userId: string): Promise<DocumentAnswerRow[]> {
      return db.select().from(documentAnswers).where(eq(documentAnswers.userId, userId));
    },

    async findDocumentAnswer(userId: string, answerKey: string) {
      const [row] = await db
        .select()
        .from(documentAnswers)
        .where(answerOf(userId, answerKey))
        .limit(1);
      return row;
    },

    /** Removes a document and clears its answer (the caller checked the application is open). */
    async deleteDocumentAnswer(
      userId: string,
      answerKey: string,
      now: Date,
    ): Promise<DocumentAnswerRow | undefined> {
      return db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(documentAnswers)
          .where(answerOf(userId, answerKey))
          .returning();
        await tx.delete(documentConversions).where(conversionOf(userId, answerKey));
        await setAnswer(tx as unknown as Db, userId, answerKey, '', now);
        return removed;
      });
    },
  };
}

export type DocumentStore = ReturnType<typeof createDocumentStore>;
