// GET /staff/api/applications and GET /service/applications: filter, count, sort and page in the
// database. The search compares staff_fold()ed text on both sides (the column is kept by a trigger,
// the query folded by the same SQL function), so "zoe" finds "Zoë" and "ostergaard" "Østergaard";
// each typed word must occur somewhere in the name or e-mail (pg_trgm GIN index for words of three
// letters or more).
import { sql, type SQL } from 'drizzle-orm';
import type {
  StaffListQuery,
  StaffListResponse,
  StaffListRow,
  StaffSort,
} from '@admissions/api-contract';
import {
  APPLICATION_DEFINITION,
  describeOption,
  findQuestionEntry,
  type PartnerConfig,
} from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { applications } from '../application';
import { users } from '../auth';
import { selectChecklistProgress } from '../checklist';

export const STAFF_PAGE_SIZE_DEFAULT = 25;
const MAX_WORDS = 8;

const ORDER: Record<StaffSort, SQL> = {
  submitted_desc: sql`a.submitted_at DESC NULLS LAST, a.id`,
  submitted_asc: sql`a.submitted_at ASC NULLS LAST, a.id`,
  name_asc: sql`a.staff_sort_name ASC, a.id`,
  name_desc: sql`a.staff_sort_name DESC, a.id DESC`,
  updated_desc: sql`a.updated_at DESC, a.id`,
};

/**
 * Turns a stored code into the label the applicant chose from (the list shows labels), and counts
 * the checklist column the partner's way.
 */
export type StaffListLabels = Record<'entry_term' | 'applied_major', (code: string) => string> & {
  checklist: ReturnType<typeof selectChecklistProgress>;
};

/**
 * Labels from the definition's own option sources (the entry terms are the partner's), so the list
 * says "Fall 2027" and "Biology" as the form did; a code no longer in the list shows as stored.
 */
export function createStaffListLabels(partner: PartnerConfig): StaffListLabels {
  const labelOf = (key: string) => {
    const source = findQuestionEntry(APPLICATION_DEFINITION, key)?.question.options;
    return (code: string) => {
      if (!source || code === '') return code;
      // Neither list depends on another answer or on the date.
      return describeOption(source, code, { answers: {}, now: new Date(), partner }) || code;
    };
  };
  return {
    entry_term: labelOf('entry_term'),
    applied_major: labelOf('applied_major'),
    checklist: selectChecklistProgress(partner.recommendations, 'a'),
  };
}

/** The list's filters as SQL conditions on `applications a` (status kept apart for the counts). */
export function buildStaffFilters(
  query: Pick<StaffListQuery, 'q' | 'round' | 'from' | 'to'>,
): SQL[] {
  const conditions: SQL[] = [];
  // applications.round_code (the round the application belongs to, docs/rounds.md).
  if (query.round) conditions.push(sql`a.round_code = ${query.round}`);
  const words = (query.q ?? '')
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, MAX_WORDS);
  for (const word of words) {
    // staff_fold() leaves only a-z, 0-9, @, . and spaces, so the folded word has no LIKE wildcard.
    // A student system ID matches whole, in any letter case (its unique index on upper()).
    conditions.push(sql`(a.staff_search_text LIKE '%' || staff_fold(${word}) || '%'
      OR upper(a.external_id) = upper(${word}))`);
  }
  if (query.from)
    conditions.push(sql`a.submitted_at >= ${query.from}::date::timestamp AT TIME ZONE 'UTC'`);
  if (query.to) {
    conditions.push(sql`a.submitted_at < (${query.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  }
  return conditions;
}

function whereOf(conditions: SQL[]): SQL {
  return conditions.length === 0 ? sql`TRUE` : sql.join(conditions, sql` AND `);
}

export async function listStaffApplications(
  db: Db,
  query: StaffListQuery,
  labels: StaffListLabels,
): Promise<StaffListResponse> {
  const page = query.page ?? 1;
  const pageSize = query.page_size ?? STAFF_PAGE_SIZE_DEFAULT;
  const filters = buildStaffFilters(query);
  const { done, required } = labels.checklist;
  if (query.checklist === 'complete') filters.push(sql`${done} >= ${required}`);
  if (query.checklist === 'awaiting') filters.push(sql`${done} < ${required}`);
  const counts = { started: 0, validating: 0, submitted: 0 };
  if ((query.q ?? '').trim() === '' && !query.checklist) {
    // Without a search, one index-only range count per status (applications_staff_status_idx)
    // is several times cheaper than hashing every row's status.
    const per = (status: string) =>
      sql`(SELECT count(*) FROM ${applications} a WHERE a.staff_status = ${status} AND ${whereOf(filters)})`;
    const counted = await db.execute<Record<keyof typeof counts, string | number>>(sql`
      SELECT ${per('started')} AS started, ${per('validating')} AS validating,
        ${per('submitted')} AS submitted`);
    const row = counted.rows[0];
    if (row) {
      counts.started = Number(row.started);
      counts.validating = Number(row.validating);
      counts.submitted = Number(row.submitted);
    }
  } else {
    // With a search (the trigram index finds the few matching rows) or the checklist filter (a
    // subquery per row), the rows are found once and grouped.
    const counted = await db.execute<{ status: string; n: string | number }>(sql`
      SELECT a.staff_status AS status, count(*) AS n FROM ${applications} a
      WHERE ${whereOf(filters)} GROUP BY a.staff_status`);
    for (const row of counted.rows) {
      if (row.status in counts) counts[row.status as keyof typeof counts] = Number(row.n);
    }
  }
  const total = query.status
    ? counts[query.status]
    : counts.started + counts.validating + counts.submitted;
  const withStatus = query.status ? [...filters, sql`a.staff_status = ${query.status}`] : filters;
  const offset = (page - 1) * pageSize;
  const order = ORDER[query.sort ?? 'submitted_desc'];
  const rows =
    offset >= total
      ? []
      : (
          await db.execute<{
            id: string;
            round: string;
            status: StaffListRow['status'];
            submitted_at: string | Date | null;
            first_name: string | null;
            middle_name: string | null;
            last_name: string | null;
            email: string;
            entry_term: string | null;
            major: string | null;
            external_id: string | null;
            checklist_done: number | string;
            checklist_required: number | string;
          }>(sql`
            SELECT a.id, a.round_code AS round, a.staff_status AS status, a.submitted_at,
              a.answer->>'first_name' AS first_name, a.answer->>'middle_name' AS middle_name,
              a.answer->>'last_name' AS last_name, u.email,
              a.answer->>'entry_term' AS entry_term, a.answer->>'applied_major' AS major,
              a.external_id, ${done} AS checklist_done, ${required} AS checklist_required
            FROM (
              -- The page is found on applications alone; only its rows meet users.
              SELECT a.* FROM ${applications} a WHERE ${whereOf(withStatus)}
              ORDER BY ${order} LIMIT ${pageSize} OFFSET ${offset}
            ) a JOIN ${users} u ON u.id = a.user_id
            ORDER BY ${order}`)
        ).rows;
  return {
    rows: rows.map((r) => ({
      id: r.id,
      round: r.round,
      status: r.status,
      submitted_at: r.submitted_at === null ? null : new Date(r.submitted_at).toISOString(),
      name: [r.first_name, r.middle_name, r.last_name]
        .map((part) => (part ?? '').trim())
        .filter((part) => part !== '')
        .join(' '),
      email: r.email,
      entry_term: labels.entry_term(r.entry_term ?? ''),
      major: labels.applied_major(r.major ?? ''),
      external_id: r.external_id,
      checklist: { done: Number(r.checklist_done), required: Number(r.checklist_required) },
    })),
    total,
    page,
    page_size: pageSize,
    counts,
  };
}
