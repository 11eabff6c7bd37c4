// The checklists of a page of applications at once, for the data export: three queries for the
// page rather than three per application, each checklist computed by the one buildChecklist
// (checklist-rules.ts), so the export says what the applicant's status page and the staff list say.
import { and, asc, isNull } from 'drizzle-orm';
import type { ChecklistItem } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { isAnyUuid } from '../../platform/db/uuid-list';
import {
  buildChecklist,
  type RecommendationSettings,
  type RecommenderRow,
  type RequestRow,
} from './checklist-rules';
import { checklistRequests, checklistWaivers, recommenders } from './schema';

export interface ChecklistSummary {
  /** Every required item received or waived. */
  complete: boolean;
  /** In the order the applicant reads them: application, counselor, teachers, others, requests. */
  items: ChecklistItem[];
  /** The live recommenders the items name (`recommender_id`). */
  recommenders: ReadonlyMap<string, { name: string; email: string }>;
}

function groupBy<T extends { applicationId: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(row.applicationId);
    if (list) list.push(row);
    else groups.set(row.applicationId, [row]);
  }
  return groups;
}

/** Each application's checklist, by application id. */
export async function readChecklists(
  db: Db,
  settings: RecommendationSettings,
  applications: readonly { id: string; submittedAt: Date | null }[],
): Promise<Map<string, ChecklistSummary>> {
  const summaries = new Map<string, ChecklistSummary>();
  if (applications.length === 0) return summaries;
  const ids = applications.map((a) => a.id);
  const [recommenderRows, requestRows, waiverRows] = await Promise.all([
    db
      .select()
      .from(recommenders)
      .where(and(isAnyUuid(recommenders.applicationId, ids), isNull(recommenders.removedAt)))
      .orderBy(asc(recommenders.createdAt), asc(recommenders.id)),
    db
      .select()
      .from(checklistRequests)
      .where(isAnyUuid(checklistRequests.applicationId, ids))
      .orderBy(asc(checklistRequests.requestedAt), asc(checklistRequests.id)),
    db
      .select({
        applicationId: checklistWaivers.applicationId,
        itemId: checklistWaivers.itemId,
        waivedAt: checklistWaivers.waivedAt,
      })
      .from(checklistWaivers)
      .where(isAnyUuid(checklistWaivers.applicationId, ids)),
  ]);
  const byApplication = {
    recommenders: groupBy<RecommenderRow>(recommenderRows),
    requests: groupBy<RequestRow>(requestRows),
    waivers: groupBy(waiverRows),
  };
  for (const application of applications) {
    const live = byApplication.recommenders.get(application.id) ?? [];
    const { items, complete } = buildChecklist({
      submittedAt: application.submittedAt,
      recommenders: live,
      requests: byApplication.requests.get(application.id) ?? [],
      waivers: new Map(
        (byApplication.waivers.get(application.id) ?? []).map((w) => [w.itemId, w.waivedAt]),
      ),
      settings,
    });
    summaries.set(application.id, {
      complete,
      items,
      recommenders: new Map(live.map((r) => [r.id, { name: r.name, email: r.email }])),
    });
  }
  return summaries;
}
