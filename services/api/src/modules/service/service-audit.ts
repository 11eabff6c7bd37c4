// The staff read audit (docs/design-decisions.md, 8): one row per successful read, written before the data leaves.
// The table refuses UPDATE, DELETE and TRUNCATE itself (trigger in migration 0004_print_and_pdf).
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { serviceAudit } from './schema';

export type ServiceAuditAction = 'print-view' | 'pdf';

export interface ServiceAuditEntry {
  tokenId: string;
  userId: string;
  action: ServiceAuditAction;
  /** Keys only, never values. */
  shown: { answers: string[]; documents: string[] };
  ip: string | null;
  at: Date;
  /** The staff member who read, when the read came from the staff area. */
  staff?: { id: string; email: string };
  /** The API key whose token read (the token's `kid`). */
  apiKeyId?: string;
}

export async function recordServiceRead(db: Db, entry: ServiceAuditEntry): Promise<void> {
  await db.insert(serviceAudit).values({
    tokenId: entry.tokenId,
    userId: entry.userId,
    action: entry.action,
    shown: entry.shown,
    ip: entry.ip,
    createdAt: entry.at,
    staffId: entry.staff?.id ?? null,
    staffEmail: entry.staff?.email ?? null,
    apiKeyId: entry.apiKeyId ?? null,
  });
}

export async function listServiceReads(db: Db, userId: string) {
  return db
    .select()
    .from(serviceAudit)
    .where(eq(serviceAudit.userId, userId))
    .orderBy(asc(serviceAudit.id));
}
