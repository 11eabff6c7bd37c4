// Persistence of uploads, conversions and document answers. Every statement is keyed by the
// application (the applicant's current one, for their requests); the conversion token makes a job's late writes harmless. Whatever decides on
// a document's fate (start, claim, complete, fail) first locks the application's row
// (lockApplication, the lock submit takes too): a submitted application's documents never change.
// The answer of a file question changes only through the application module (setFileAnswer).
import { and, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ConversionStatus } from '@admissions/api-contract';
import { UPLOAD_LIMITS } from './conversion/limits';
import { UPLOAD_POLICY } from './document-storage';
import type { Db } from '../../platform/db/connect';
import { documentAnswers, documentConversions, documentUploads } from './schema';
import { lockApplication, setFileAnswer, type ApplicantWrite } from '../application';

export type ConversionRow = typeof documentConversions.$inferSelect;
export type DocumentAnswerRow = typeof documentAnswers.$inferSelect;

/** Statuses that still wait for a worker. */
export const PENDING_STATUSES: readonly ConversionStatus[] = ['UNPROCESSED', 'IN_PROGRESS'];

export function createDocumentStore(db: Db) {
  const conversionOf = (applicationId: string, answerKey: string) =>
    and(
      eq(documentConversions.applicationId, applicationId),
      eq(documentConversions.answerKey, answerKey),
    );
  const answerOf = (applicationId: string, answerKey: string) =>
    and(eq(documentAnswers.applicationId, applicationId), eq(documentAnswers.answerKey, answerKey));

  /** Ends a conversion that finished after its application was submitted; nothing else moves. */
  const endFrozen = (
    tx: Db,
    row: Pick<ConversionRow, 'applicationId' | 'answerKey' | 'token'>,
    message: string,
    now: Date,
  ) =>
    tx
      .update(documentConversions)
      .set({ status: 'FAILED', message, updatedAt: now })
      .where(
        and(
          conversionOf(row.applicationId, row.answerKey),
          eq(documentConversions.token, row.token),
          inArray(documentConversions.status, [...PENDING_STATUSES]),
        ),
      )
      .returning({ token: documentConversions.token, sourceKey: documentConversions.sourceKey });

  return {
    /**
     * Records a new upload key unless the applicant already has too many uploads in progress
     * (UPLOAD_LIMITS). In progress: a link that may still bring a file (issued, not expired, not
     * yet turned into a conversion, not released) and a conversion still pending. The question's
     * earlier unused links are released first: a new link replaces them, so retrying after a
     * refused, failed or abandoned upload never counts twice. The bytes bound counts every link
     * that may still hold or receive a file, released or not: `releasedLinksReceive` says whether
     * the storage still takes a file through a released link (S3 does until it expires; the
     * local endpoint does not). One transaction under the applicant's lock: check, then write.
     */
    async recordUploadWithinLimits(
      applicationId: string,
      answerKey: string,
      storageKey: string,
      expiresAt: Date,
      now: Date,
      releasedLinksReceive: boolean,
      write?: ApplicantWrite,
    ): Promise<boolean> {
      return db
        .transaction(async (tx) => {
          // Concurrent requests of one applicant queue here, so a burst cannot overshoot the limit;
          // a round closed before the request arrived refuses it here (409 ROUND_CLOSED).
          await lockApplication(tx, applicationId, write);
          await tx
            .update(documentUploads)
            .set({ releasedAt: now })
            .where(
              and(
                eq(documentUploads.applicationId, applicationId),
                eq(documentUploads.answerKey, answerKey),
                isNull(documentUploads.consumedAt),
                isNull(documentUploads.releasedAt),
                sql`${documentUploads.expiresAt} > ${now.toISOString()}::timestamptz`,
              ),
            );
          const result = await tx.execute<{ count: number; bytes: string | number }>(sql`
          SELECT coalesce(sum(counted), 0)::int AS count, coalesce(sum(bytes), 0)::bigint AS bytes FROM (
            SELECT CASE WHEN u.released_at IS NULL THEN 1 ELSE 0 END AS counted,
                   CASE WHEN u.released_at IS NULL OR u.uploaded_at IS NOT NULL OR ${releasedLinksReceive}
                        THEN coalesce(u.uploaded_bytes, ${UPLOAD_POLICY.maxBytes}) ELSE 0 END AS bytes
              FROM document_uploads u
             WHERE u.application_id = ${applicationId} AND u.consumed_at IS NULL
               AND u.expires_at > ${now.toISOString()}::timestamptz
            UNION ALL
            SELECT 1, ${UPLOAD_POLICY.maxBytes}
              FROM document_conversions c
             WHERE c.application_id = ${applicationId} AND c.status IN ('UNPROCESSED', 'IN_PROGRESS')
          ) pending`);
          const [pending] = result.rows;
          const count = Number(pending?.count ?? 0);
          const bytes = Number(pending?.bytes ?? 0);
          if (
            count + 1 > UPLOAD_LIMITS.maxPendingUploads ||
            bytes + UPLOAD_POLICY.maxBytes > UPLOAD_LIMITS.maxBytesInFlight
          ) {
            // Nothing was issued: the links released above stay in progress.
            throw new UploadLimitReached();
          }
          await tx
            .insert(documentUploads)
            .values({ storageKey, applicationId, answerKey, expiresAt });
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof UploadLimitReached) return false;
          throw error;
        });
    },

    /**
     * The local upload endpoint takes a link's file: 'claimed' once per key (an atomic UPDATE, so
     * two concurrent uploads to one link cannot both win), 'released' when a newer link replaced
     * it or its file was refused, 'used' when it was used, consumed or is gone.
     */
    async claimUploadReceipt(
      storageKey: string,
      now: Date,
    ): Promise<'claimed' | 'used' | 'released'> {
      const rows = await db
        .update(documentUploads)
        .set({ uploadedAt: now })
        .where(
          and(
            eq(documentUploads.storageKey, storageKey),
            isNull(documentUploads.uploadedAt),
            isNull(documentUploads.consumedAt),
            isNull(documentUploads.releasedAt),
            sql`${documentUploads.expiresAt} > ${now.toISOString()}::timestamptz`,
          ),
        )
        .returning({ key: documentUploads.storageKey });
      if (rows.length === 1) return 'claimed';
      const [link] = await db
        .select({ releasedAt: documentUploads.releasedAt, consumedAt: documentUploads.consumedAt })
        .from(documentUploads)
        .where(eq(documentUploads.storageKey, storageKey))
        .limit(1);
      return link?.releasedAt && !link.consumedAt ? 'released' : 'used';
    },

    async recordUploadedBytes(storageKey: string, bytes: number) {
      await db
        .update(documentUploads)
        .set({ uploadedBytes: bytes })
        .where(eq(documentUploads.storageKey, storageKey));
    },

    /**
     * An upload the local endpoint refused (too large, empty, cut off) stored nothing: its link
     * is released, so it no longer counts as in progress, and takes no other file (the SPA asks
     * for a new link for each file it sends).
     */
    async releaseUploadReceipt(storageKey: string, now: Date) {
      await db
        .update(documentUploads)
        .set({ uploadedAt: null, uploadedBytes: null, releasedAt: now })
        .where(and(eq(documentUploads.storageKey, storageKey), isNull(documentUploads.consumedAt)));
    },

    /**
     * Forgets links that expired, in batches until none is left (no per-sweep ceiling), and
     * returns their keys: the blob there can go unless a pending conversion still reads it. A
     * consumed key is included on purpose: S3 accepts a second upload to a live link, and this is
     * where such a copy is removed.
     */
    async takeExpiredUploads(now: Date, batch = 500): Promise<string[]> {
      const keys: string[] = [];
      for (;;) {
        const rows = await db
          .delete(documentUploads)
          .where(
            sql`${documentUploads.storageKey} IN (
              SELECT u.storage_key FROM document_uploads u
              WHERE u.expires_at < ${now.toISOString()}::timestamptz
                AND NOT EXISTS (
                  SELECT 1 FROM document_conversions c
                  WHERE c.source_key = u.storage_key AND c.status IN ('UNPROCESSED', 'IN_PROGRESS'))
              LIMIT ${batch})`,
          )
          .returning({ key: documentUploads.storageKey });
        keys.push(...rows.map((r) => r.key));
        if (rows.length < batch) return keys;
      }
    },

    /** Of these blob keys, the ones a row still refers to (a link, a conversion or a document). */
    async listReferencedKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const list = sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      );
      const result = await db.execute<{ key: string }>(sql`
        SELECT storage_key AS key FROM document_uploads WHERE storage_key IN (${list})
        UNION SELECT source_key FROM document_conversions
              WHERE source_key IN (${list}) AND status IN ('UNPROCESSED', 'IN_PROGRESS')
        UNION SELECT pdf_key FROM document_answers WHERE pdf_key IN (${list})
        UNION SELECT thumbnail_key FROM document_answers WHERE thumbnail_key IN (${list})`);
      return new Set(result.rows.map((r) => r.key));
    },

    async findConversion(
      applicationId: string,
      answerKey: string,
    ): Promise<ConversionRow | undefined> {
      const [row] = await db
        .select()
        .from(documentConversions)
        .where(conversionOf(applicationId, answerKey))
        .limit(1);
      return row;
    },

    async listPendingConversions(
      applicationId: string,
      answerKeys: string[],
    ): Promise<ConversionRow[]> {
      if (answerKeys.length === 0) return [];
      return db
        .select()
        .from(documentConversions)
        .where(
          and(
            eq(documentConversions.applicationId, applicationId),
            inArray(documentConversions.answerKey, answerKeys),
            inArray(documentConversions.status, [...PENDING_STATUSES]),
          ),
        );
    },

    /**
     * Starts a new conversion from an upload key, replacing any earlier conversion of the
     * question, in one transaction under the application lock: refused when the application is
     * submitted, when the key is not this applicant's, when it already started a conversion, or
     * while the question's previous file still converts. Returns the replaced row.
     */
    async beginConversion(row: {
      applicationId: string;
      answerKey: string;
      token: string;
      sourceKey: string;
      fileName: string;
      now: Date;
      /** The applicant's request: refused (409 ROUND_CLOSED) once the round has closed. */
      write?: ApplicantWrite;
    }): Promise<
      | { started: true; replaced: ConversionRow | undefined }
      | {
          started: false;
          reason: 'submitted' | 'unknown-key' | 'key-used' | 'key-released' | 'in-progress';
        }
    > {
      return db.transaction(async (tx) => {
        if ((await lockApplication(tx, row.applicationId, row.write)).submitted) {
          return { started: false, reason: 'submitted' } as const;
        }
        const [upload] = await tx
          .select()
          .from(documentUploads)
          .where(
            and(
              eq(documentUploads.storageKey, row.sourceKey),
              eq(documentUploads.applicationId, row.applicationId),
              eq(documentUploads.answerKey, row.answerKey),
            ),
          )
          .limit(1);
        if (!upload) return { started: false, reason: 'unknown-key' } as const;
        if (upload.consumedAt) return { started: false, reason: 'key-used' } as const;
        // A newer link of the question replaced it (or its file was refused): that one counts.
        if (upload.releasedAt) return { started: false, reason: 'key-released' } as const;
        const [existing] = await tx
          .select()
          .from(documentConversions)
          .where(conversionOf(row.applicationId, row.answerKey))
          .limit(1);
        if (existing && PENDING_STATUSES.includes(existing.status as ConversionStatus)) {
          return { started: false, reason: 'in-progress' } as const;
        }
        await tx
          .update(documentUploads)
          .set({ consumedAt: row.now })
          .where(eq(documentUploads.storageKey, row.sourceKey));
        const values = {
          applicationId: row.applicationId,
          answerKey: row.answerKey,
          token: row.token,
          status: 'UNPROCESSED',
          message: '',
          sourceKey: row.sourceKey,
          fileName: row.fileName,
          createdAt: row.now,
          updatedAt: row.now,
        };
        await tx
          .insert(documentConversions)
          .values(values)
          .onConflictDoUpdate({
            target: [documentConversions.applicationId, documentConversions.answerKey],
            set: values,
          });
        return { started: true, replaced: existing } as const;
      });
    },

    /**
     * A worker takes the conversion: the row, 'busy' while another conversion of the same
     * applicant runs (one at a time each: the job waits and tries again), or undefined when it
     * was replaced, deleted or swept. A conversion of a submitted application ends here (its
     * upload's key is returned so the caller can remove the blob).
     */
    async claimConversion(
      applicationId: string,
      answerKey: string,
      token: string,
      now: Date,
      frozenMessage: string,
    ): Promise<ConversionRow | 'busy' | { frozenSourceKey: string } | undefined> {
      return db.transaction(async (tx) => {
        const { submitted } = await lockApplication(tx, applicationId);
        const mine = and(
          conversionOf(applicationId, answerKey),
          eq(documentConversions.token, token),
          inArray(documentConversions.status, [...PENDING_STATUSES]),
        );
        if (submitted) {
          const [ended] = await endFrozen(
            tx,
            { applicationId, answerKey, token },
            frozenMessage,
            now,
          );
          return ended ? { frozenSourceKey: ended.sourceKey } : undefined;
        }
        const [running] = await tx
          .select({ answerKey: documentConversions.answerKey })
          .from(documentConversions)
          .where(
            and(
              eq(documentConversions.applicationId, applicationId),
              eq(documentConversions.status, 'IN_PROGRESS'),
              sql`${documentConversions.answerKey} <> ${answerKey}`,
            ),
          )
          .limit(1);
        if (running) {
          const [waiting] = await tx
            .select({ token: documentConversions.token })
            .from(documentConversions)
            .where(mine)
            .limit(1);
          return waiting ? 'busy' : undefined;
        }
        const [row] = await tx
          .update(documentConversions)
          .set({ status: 'IN_PROGRESS', updatedAt: now })
          .where(mine)
          .returning();
        return row;
      });
    },

    /**
     * Records the converted document and sets the answer to ANSWERED, if the conversion is still
     * the current one and the application is not submitted. Returns the replaced document's PDF
     * and thumbnail keys, 'stale' (the conversion moved on) or 'frozen' (the application was
     * submitted).
     */
    async completeConversion(
      row: ConversionRow,
      document: {
        fileSize: number;
        pdfKey: string;
        pdfSize: number;
        pageCount: number | null;
        thumbnailKey: string | null;
      },
      now: Date,
      frozenMessage: string,
    ): Promise<
      { previousPdfKey: string | null; previousThumbnailKey: string | null } | 'stale' | 'frozen'
    > {
      return db.transaction(async (tx) => {
        // Submitted meanwhile: the submitted document stays; this result is dropped.
        if ((await lockApplication(tx, row.applicationId)).submitted) {
          const ended = await endFrozen(tx, row, frozenMessage, now);
          return ended.length > 0 ? 'frozen' : 'stale';
        }
        const [current] = await tx
          .update(documentConversions)
          .set({ status: 'COMPLETED', message: '', updatedAt: now })
          .where(
            and(
              conversionOf(row.applicationId, row.answerKey),
              eq(documentConversions.token, row.token),
              eq(documentConversions.status, 'IN_PROGRESS'),
            ),
          )
          .returning({ token: documentConversions.token });
        if (!current) return 'stale';
        const [previous] = await tx
          .select({ pdfKey: documentAnswers.pdfKey, thumbnailKey: documentAnswers.thumbnailKey })
          .from(documentAnswers)
          .where(answerOf(row.applicationId, row.answerKey))
          .for('update');
        const values = {
          applicationId: row.applicationId,
          answerKey: row.answerKey,
          fileName: row.fileName,
          fileSize: document.fileSize,
          pdfKey: document.pdfKey,
          pdfSize: document.pdfSize,
          pageCount: document.pageCount,
          thumbnailKey: document.thumbnailKey,
          createdAt: now,
        };
        await tx
          .insert(documentAnswers)
          .values(values)
          .onConflictDoUpdate({
            target: [documentAnswers.applicationId, documentAnswers.answerKey],
            set: values,
          });
        await setFileAnswer(tx, row.applicationId, row.answerKey, 'ANSWERED', now);
        return {
          previousPdfKey: previous?.pdfKey ?? null,
          previousThumbnailKey: previous?.thumbnailKey ?? null,
        };
      });
    },

    /**
     * Marks the conversion FAILED with the reason and clears the answer and any earlier document
     * (docs/behaviour.md). Returns the removed document's PDF and thumbnail keys; 'stale' when the conversion moved on,
     * 'frozen' when the application was submitted (then only the conversion row records why).
     */
    async failConversion(
      row: Pick<ConversionRow, 'applicationId' | 'answerKey' | 'token'>,
      message: string,
      now: Date,
      frozenMessage: string,
    ): Promise<
      { removedPdfKey: string | null; removedThumbnailKey: string | null } | 'stale' | 'frozen'
    > {
      return db.transaction(async (tx) => {
        // Submitted meanwhile: the submitted document and its ANSWERED answer stay.
        if ((await lockApplication(tx, row.applicationId)).submitted) {
          const ended = await endFrozen(tx, row, frozenMessage, now);
          return ended.length > 0 ? 'frozen' : 'stale';
        }
        const [current] = await tx
          .update(documentConversions)
          .set({ status: 'FAILED', message, updatedAt: now })
          .where(
            and(
              conversionOf(row.applicationId, row.answerKey),
              eq(documentConversions.token, row.token),
              inArray(documentConversions.status, [...PENDING_STATUSES]),
            ),
          )
          .returning({ token: documentConversions.token });
        if (!current) return 'stale';
        const [removed] = await tx
          .delete(documentAnswers)
          .where(answerOf(row.applicationId, row.answerKey))
          .returning({
            pdfKey: documentAnswers.pdfKey,
            thumbnailKey: documentAnswers.thumbnailKey,
          });
        await setFileAnswer(tx, row.applicationId, row.answerKey, '', now);
        return {
          removedPdfKey: removed?.pdfKey ?? null,
          removedThumbnailKey: removed?.thumbnailKey ?? null,
        };
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

    /**
     * Forgets a conversion. Given the applicant's request, under the application lock: refused
     * (409 ROUND_CLOSED) once the round has closed, 'submitted' (nothing forgotten) once submitted.
     */
    async deleteConversion(
      applicationId: string,
      answerKey: string,
      write?: ApplicantWrite,
    ): Promise<ConversionRow | undefined | 'submitted'> {
      return db.transaction(async (tx) => {
        if (write && (await lockApplication(tx, applicationId, write)).submitted) {
          return 'submitted';
        }
        const [row] = await tx
          .delete(documentConversions)
          .where(conversionOf(applicationId, answerKey))
          .returning();
        return row;
      });
    },

    /** Every conversion of the applicant (the latest per file question), by answer key. */
    async listConversions(applicationId: string): Promise<ConversionRow[]> {
      return db
        .select()
        .from(documentConversions)
        .where(eq(documentConversions.applicationId, applicationId))
        .orderBy(documentConversions.answerKey);
    },

    async listDocumentAnswers(applicationId: string): Promise<DocumentAnswerRow[]> {
      return db
        .select()
        .from(documentAnswers)
        .where(eq(documentAnswers.applicationId, applicationId));
    },

    async findDocumentAnswer(applicationId: string, answerKey: string) {
      const [row] = await db
        .select()
        .from(documentAnswers)
        .where(answerOf(applicationId, answerKey))
        .limit(1);
      return row;
    },

    /**
     * Removes a document and clears its answer; 'submitted' (nothing removed) when the
     * application was submitted since the caller checked it was open.
     */
    async deleteDocumentAnswer(
      applicationId: string,
      answerKey: string,
      now: Date,
      write?: ApplicantWrite,
    ): Promise<DocumentAnswerRow | undefined | 'submitted'> {
      return db.transaction(async (tx) => {
        if ((await lockApplication(tx, applicationId, write)).submitted) return 'submitted';
        const [removed] = await tx
          .delete(documentAnswers)
          .where(answerOf(applicationId, answerKey))
          .returning();
        await tx.delete(documentConversions).where(conversionOf(applicationId, answerKey));
        await setFileAnswer(tx, applicationId, answerKey, '', now);
        return removed;
      });
    },
  };
}

export type DocumentStore = ReturnType<typeof createDocumentStore>;

/** The first file question (by key) of the applicant whose upload still converts, read in `tx`. */
export async function findConverting(tx: Db, applicationId: string): Promise<string | undefined> {
  const [converting] = await tx
    .select({ answerKey: documentConversions.answerKey })
    .from(documentConversions)
    .where(
      and(
        eq(documentConversions.applicationId, applicationId),
        inArray(documentConversions.status, [...PENDING_STATUSES]),
      ),
    )
    .orderBy(documentConversions.answerKey)
    .limit(1);
  return converting?.answerKey;
}

/**
 * The profile's document_answer ({ key: { file_name, file_size } }) of the applicant `applicationId`
 * as a SQL expression, so GET /api/profile stays one statement.
 */
export function profileDocumentsSql(applicationId: SQL): SQL {
  return sql`COALESCE((
    SELECT json_object_agg(d.answer_key,
      json_build_object('file_name', d.file_name, 'file_size', d.file_size))
    FROM ${documentAnswers} d WHERE d.application_id = ${applicationId}), '{}'::json)`;
}

/** Ends recordUploadWithinLimits's transaction without issuing, undoing its releases. */
class UploadLimitReached extends Error {}
