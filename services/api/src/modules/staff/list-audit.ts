// The list audit (issue #26): every list or search of applications shows applicants' names and
// e-mail addresses, so each request writes one staff_list_audit row before its answer leaves (a
// failed insert fails the request), as every read of one application writes a service_audit row.
import type { StaffListQuery, StaffListResponse } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { staffListAudit } from './schema';

export interface ListAuditEntry {
  /** The staff member who listed (staff area) … */
  staff?: { id: string; email: string };
  /** … or the API key that did (GET /service/applications). */
  apiKeyId?: string;
  query: StaffListQuery;
  answer: StaffListResponse;
  ip: string;
  at: Date;
}

export async function recordListRead(db: Db, entry: ListAuditEntry): Promise<void> {
  await db.insert(staffListAudit).values({
    createdAt: entry.at,
    staffId: entry.staff?.id ?? null,
    staffEmail: entry.staff?.email ?? null,
    apiKeyId: entry.apiKeyId ?? null,
    query: { ...entry.query },
    total: entry.answer.total,
    shown: entry.answer.rows.length,
    ip: entry.ip,
  });
}
