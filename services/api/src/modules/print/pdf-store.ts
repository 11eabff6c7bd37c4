// Persistence of generated application PDFs: one row per applicant and audience, for one version.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { applicationPdfs, type PdfShownKeys } from './schema';

export type PdfAudience = 'applicant' | 'service';
export type ApplicationPdfRow = typeof applicationPdfs.$inferSelect;

export const PDF_PENDING = ['UNPROCESSED', 'IN_PROGRESS'] as const;

export function createPdfStore(db: Db) {
  const rowOf = (applicationId: string, audience: PdfAudience) =>
    and(eq(applicationPdfs.applicationId, applicationId), eq(applicationPdfs.audience, audience));

  /** Takes the row for update and runs `change` if the generation `token` is still current. */
  async function finish<T>(
    applicationId: string,
    audience: PdfAudience,
    token: string,
    change: (tx: Db, previousKey: string | null) => Promise<T>,
  ): Promise<T | 'stale'> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select({ token: applicationPdfs.token, storageKey: applicationPdfs.storageKey })
        .from(applicationPdfs)
        .where(rowOf(applicationId, audience))
        .for('update');
      if (!row || row.token !== token) return 'stale';
      return change(tx, row.storageKey);
    });
  }

  return {
    /** Which of `keys` a row still records as its stored PDF. */
    async listReferencedKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .select({ key: applicationPdfs.storageKey })
        .from(applicationPdfs)
        .where(inArray(applicationPdfs.storageKey, keys));
      return new Set(rows.flatMap((r) => (r.key ? [r.key] : [])));
    },

    async find(
      applicationId: string,
      audience: PdfAudience,
    ): Promise<ApplicationPdfRow | undefined> {
      const [row] = await db
        .select()
        .from(applicationPdfs)
        .where(rowOf(applicationId, audience))
        .limit(1);
      return row;
    },

    /**
     * Starts a generation for `version` unless one is current: the row is new, its version is
     * older, it FAILED before `retryFailedBefore`, or it has been pending since before
     * `stuckBefore`. One statement, so of many concurrent callers exactly one gets the token back
     * (and enqueues the job); the others get null.
     */
    async startGeneration(options: {
      applicationId: string;
      audience: PdfAudience;
      version: number;
      token: string;
      now: Date;
      retryFailedBefore: Date;
      stuckBefore: Date;
    }): Promise<string | null> {
      const { applicationId, audience, version, token, now } = options;
      const rows = await db
        .insert(applicationPdfs)
        .values({
          applicationId,
          audience,
          version,
          status: 'UNPROCESSED',
          token,
          message: '',
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [applicationPdfs.applicationId, applicationPdfs.audience],
          set: {
            version,
            status: 'UNPROCESSED',
            token,
            message: '',
            updatedAt: now,
          },
          setWhere: sql`${applicationPdfs.version} < ${version}
            OR (${applicationPdfs.status} = 'FAILED'
                AND ${applicationPdfs.updatedAt} < ${options.retryFailedBefore.toISOString()}::timestamptz)
            OR (${applicationPdfs.status} IN ('UNPROCESSED', 'IN_PROGRESS')
                AND ${applicationPdfs.updatedAt} < ${options.stuckBefore.toISOString()}::timestamptz)`,
        })
        .returning({ token: applicationPdfs.token });
      return rows[0]?.token === token ? token : null;
    },

    /** A worker takes the generation (again, on a retry); undefined when it was superseded. */
    async claim(applicationId: string, audience: PdfAudience, token: string, now: Date) {
      const [row] = await db
        .update(applicationPdfs)
        .set({ status: 'IN_PROGRESS', updatedAt: now })
        .where(
          sql`${rowOf(applicationId, audience)} AND ${applicationPdfs.token} = ${token}
              AND ${applicationPdfs.status} IN ('UNPROCESSED', 'IN_PROGRESS')`,
        )
        .returning();
      return row;
    },

    /**
     * Records the stored PDF of `version` if the generation is still current; returns the key of
     * the PDF it replaces (to remove), or 'stale' (the caller removes its own new file).
     */
    complete(options: {
      applicationId: string;
      audience: PdfAudience;
      token: string;
      version: number;
      storageKey: string;
      pdfSize: number;
      shown: PdfShownKeys;
      now: Date;
    }): Promise<{ previousKey: string | null } | 'stale'> {
      const { applicationId, audience, token } = options;
      return finish(applicationId, audience, token, async (tx, previousKey) => {
        await tx
          .update(applicationPdfs)
          .set({
            status: 'COMPLETED',
            version: options.version,
            storageKey: options.storageKey,
            pdfSize: options.pdfSize,
            shown: options.shown,
            message: '',
            updatedAt: options.now,
          })
          .where(rowOf(applicationId, audience));
        return { previousKey: previousKey === options.storageKey ? null : previousKey };
      });
    },

    /** Marks the generation FAILED; returns the key of the older PDF it drops. */
    fail(
      applicationId: string,
      audience: PdfAudience,
      token: string,
      message: string,
      now: Date,
    ): Promise<{ previousKey: string | null } | 'stale'> {
      return finish(applicationId, audience, token, async (tx, previousKey) => {
        await tx
          .update(applicationPdfs)
          .set({
            status: 'FAILED',
            message,
            storageKey: null,
            pdfSize: null,
            shown: null,
            updatedAt: now,
          })
          .where(rowOf(applicationId, audience));
        return { previousKey };
      });
    },

    /**
     * Stores a PDF rendered on the spot (the staff download) unless a newer version is already
     * recorded; returns the key it replaces, or 'stale'.
     */
    async storeRendered(options: {
      applicationId: string;
      audience: PdfAudience;
      version: number;
      token: string;
      storageKey: string;
      pdfSize: number;
      shown: PdfShownKeys;
      now: Date;
    }): Promise<{ previousKey: string | null } | 'stale'> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ version: applicationPdfs.version, storageKey: applicationPdfs.storageKey })
          .from(applicationPdfs)
          .where(rowOf(options.applicationId, options.audience))
          .for('update');
        if (row && row.version > options.version) return 'stale';
        const values = {
          applicationId: options.applicationId,
          audience: options.audience,
          version: options.version,
          status: 'COMPLETED',
          token: options.token,
          storageKey: options.storageKey,
          pdfSize: options.pdfSize,
          shown: options.shown,
          message: '',
          createdAt: options.now,
          updatedAt: options.now,
        };
        await tx
          .insert(applicationPdfs)
          .values(values)
          .onConflictDoUpdate({
            target: [applicationPdfs.applicationId, applicationPdfs.audience],
            set: values,
          });
        const previousKey = row?.storageKey ?? null;
        return { previousKey: previousKey === options.storageKey ? null : previousKey };
      });
    },
  };
}

export type PdfStore = ReturnType<typeof createPdfStore>;
