// The staff read audit (docs/design-decisions.md, 8): one row per successful read, written before the data leaves.
// The table refuses UPDATE, DELETE and TRUNCATE itself (trigger in migration 0004_print_and_pdf).
import { asc, eq } from 'drizzle-orm';
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
const READS_PER_INSERT = 500;

/**
 * One read of many applications at once (a download of a staff export): a row per application,
 * all under the read's one token id, so they group.
 */
export async function recordServiceReads(
  db: Db,
  read: Omit<ServiceAuditEntry, 'applicationId' | 'shown'>,
  applications: readonly Pick<ServiceAuditEntry, 'applicationId' | 'shown'>[],
): Promise<void> {
  for (let i = 0; i < applications.length; i += READS_PER_INSERT) {
    await db
      .insert(serviceAudit)
      .values(applications.slice(i, i + READS_PER_INSERT).map((a) => toRow({ ...read, ...a })));
  }
}

export async function listServiceReads(db: Db, applicationId: string) {
  return db
    .select()
    .from(serviceAudit)
    .where(eq(serviceAudit.applicationId, applicationId))
    .orderBy(asc(serviceAudit.id));
}
