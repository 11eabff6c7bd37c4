// The staff list's checklist column and filter, in SQL: required items received or waived, of all
// required items, counted as buildChecklist (checklist-rules.ts) counts them, so the list filters
// in the database. services/api/test/checklist.test.ts compares the two on the same rows.
import { sql, type SQL } from 'drizzle-orm';
import { checklistRequests, checklistWaivers, recommenders } from './schema';
import { COUNSELOR_ITEM, type RecommendationSettings } from './checklist-rules';

export interface ChecklistProgressSql {
  done: SQL<number>;
  required: SQL<number>;
}

/** For the row of `applications` called `alias` in the caller's query. */
export function selectChecklistProgress(
  settings: RecommendationSettings,
  alias: string,
): ChecklistProgressSql {
  const id = sql.raw(`${alias}.id`);
  const submittedAt = sql.raw(`${alias}.submitted_at`);
  const waived = (item: SQL) =>
    sql`EXISTS (SELECT 1 FROM ${checklistWaivers} w WHERE w.application_id = ${id} AND w.item_id = ${item})`;
  const counselor = settings.counselorRequired
    ? sql`(${waived(sql`${COUNSELOR_ITEM}`)} OR EXISTS (SELECT 1 FROM ${recommenders} r
        WHERE r.application_id = ${id} AND r.type = 'counselor' AND r.removed_at IS NULL
          AND r.submitted_at IS NOT NULL))::int`
    : sql`0`;
  // Teacher slot n is the n-th live teacher named, oldest first (as the store lists them).
  const teachers =
    settings.teachersRequired > 0
      ? sql`(SELECT count(*) FROM generate_series(1, ${settings.teachersRequired}::int) g(n)
          WHERE ${waived(sql`'teacher-' || g.n`)} OR EXISTS (
            SELECT 1 FROM (
              SELECT r.submitted_at, row_number() OVER (ORDER BY r.created_at, r.id) AS n
              FROM ${recommenders} r
              WHERE r.application_id = ${id} AND r.type = 'teacher' AND r.removed_at IS NULL
            ) t WHERE t.n = g.n AND t.submitted_at IS NOT NULL))::int`
      : sql`0`;
  const requestsDone = sql`(SELECT count(*) FROM ${checklistRequests} q
    WHERE q.application_id = ${id}
      AND (q.received_at IS NOT NULL OR ${waived(sql`'request-' || q.id::text`)}))::int`;
  const requestsAll = sql`(SELECT count(*) FROM ${checklistRequests} q WHERE q.application_id = ${id})::int`;
  const fixed = 1 + (settings.counselorRequired ? 1 : 0) + settings.teachersRequired;
  return {
    // The application item is received once submitted (it cannot be waived).
    done: sql<number>`((${submittedAt} IS NOT NULL)::int + ${counselor} + ${teachers} + ${requestsDone})`,
    required: sql<number>`(${fixed}::int + ${requestsAll})`,
  };
}
