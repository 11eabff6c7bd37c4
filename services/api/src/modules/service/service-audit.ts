// The staff read audit (docs/design-decisions.md, 8): one row per successful read, written before the data leaves.
// The table refuses UPDATE, DELETE and TRUNCATE itself (trigger in migration 0004_print_and_pdf).
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { serviceAudit } from './schema';

export type ServiceAuditAction =
  'print-view' | 'pdf' | 'checklist' | 'data-export' | 'sensitive-export';

export interface ServiceAuditEntry {
  tokenId: string;
  applicationId: string;
  action: ServiceAuditAction;
  /** Keys only, never values. */
  shown: { answers: string[]; documents: string[] };
  ip: string | null;
  at: Date;
  /** The staff member who read, when the read came from the staff area. */
  staff?: { id: string; email: string };
  /** The API key whose token read (the token's `kid`). */
  apiKeyId?: string;
  /** Why protected answers were exported ('sensitive-export'). */
  reason?: string;
}

const toRow = (entry: ServiceAuditEntry): typeof serviceAudit.$inferInsert => ({
  tokenId: entry.tokenId,
  applicationId: entry.applicationId,
  action: entry.action,
  shown: entry.shown,
  ip: entry.ip,
  createdAt: entry.at,
  staffId: entry.staff?.id ?? null,
  staffEmail: entry.staff?.email ?? null,
  apiKeyId: entry.apiKeyId ?? null,
  reason: entry.reason ?? null,
});

export async function recordServiceRead(db: Db, entry: ServiceAuditEntry): Promise<void> {
  await db.insert(serviceAudit).values(toRow(entry));
}

/** Rows per INSERT when one read covers many applications. */
const READS_PER_INSERT = 2_000;

/**
 * One read of many applications at once (a download of a staff export, a page of a data export):
 * a row per application, all under the read's one token id, so they group. What the rows share is
 * bound once and the per-application part travels as one JSON parameter: drizzle's multi-row
 * values() built ten parameters per row, which cost more than the insert (the data export's
 * profile).
 */
export async function recordServiceReads(
  db: Db,
  read: Omit<ServiceAuditEntry, 'applicationId' | 'shown'>,
  applications: readonly Pick<ServiceAuditEntry, 'applicationId' | 'shown'>[],
): Promise<void> {
  const shared = toRow({ ...read, applicationId: '', shown: { answers: [], documents: [] } });
  for (let i = 0; i < applications.length; i += READS_PER_INSERT) {
    const rows = applications
      .slice(i, i + READS_PER_INSERT)
      .map((a) => ({ application_id: a.applicationId, shown: a.shown }));
    // In the list's order, so the ids (bigserial) follow it.
    await db.execute(sql`
      INSERT INTO ${serviceAudit} (token_id, application_id, action, shown, ip, created_at,
        staff_id, staff_email, api_key_id, reason)
      SELECT ${shared.tokenId}, r.application_id, ${shared.action}, r.shown, ${shared.ip ?? null},
        ${read.at.toISOString()}::timestamptz, ${shared.staffId ?? null}::uuid,
        ${shared.staffEmail ?? null}, ${shared.apiKeyId ?? null}::uuid, ${shared.reason ?? null}
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS (application_id uuid, shown jsonb))
        WITH ORDINALITY AS r(application_id, shown, n)
      ORDER BY r.n`);
  }
}

export async function listServiceReads(db: Db, applicationId: string) {
  return db
    .select()
    .from(serviceAudit)
    .where(eq(serviceAudit.applicationId, applicationId))
    .orderBy(asc(serviceAudit.id));
}
