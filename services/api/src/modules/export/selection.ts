// Which applications an export covers: by status, by submission date, or by a list of ids and
// e-mail addresses. Only the columns the index needs are read here; the renderer reads the rest.
import { and, asc, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { APPLICANT_NAME_KEYS } from '@admissions/form';
import { formatApplicantName } from '@admissions/answer-view';
import type { Db } from '../../platform/db/connect';
import { applications } from '../application';
import { users } from '../auth';
import type { ExportStatusFilter } from './options';

export interface SelectedApplication {
  id: string;
  email: string;
  /** The name answers only (first, middle, last), keyed as the definition keys them. */
  nameAnswers: Record<string, string>;
  /** First, middle and last name as the applicant wrote them. */
  name: string;
  submittedAt: Date | null;
  version: number;
  status: 'submitted' | 'started';
}

export interface SelectionCriteria {
  status: ExportStatusFilter;
  /** An admission round's code; null: every round. */
  round: string | null;
  since: Date | null;
  until: Date | null;
  /** Application ids and e-mail addresses; null selects by the other criteria only. */
  ids: string[] | null;
}

export interface UnmatchedId {
  value: string;
  reason: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CHUNK = 500;

/** The lines of an --ids file: blank lines and `#` comments skipped, duplicates once. */
export function parseIdList(text: string): string[] {
  const seen = new Set<string>();
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // Accounts are keyed by the lowercased e-mail; ids are lowercase UUIDs.
    seen.add(line.toLowerCase());
  }
  return [...seen];
}

const nameOf = (key: string) => sql<string | null>`${applications.answer}->>${key}`;

const columns = {
  id: applications.id,
  email: users.email,
  firstName: nameOf(APPLICANT_NAME_KEYS.first),
  middleName: nameOf(APPLICANT_NAME_KEYS.middle),
  lastName: nameOf(APPLICANT_NAME_KEYS.last),
  submittedAt: applications.submittedAt,
  version: applications.version,
};

type Row = {
  id: string;
  email: string;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  submittedAt: Date | null;
  version: number;
};

function toSelected(row: Row): SelectedApplication {
  const nameAnswers = {
    [APPLICANT_NAME_KEYS.first]: row.firstName ?? '',
    [APPLICANT_NAME_KEYS.middle]: row.middleName ?? '',
    [APPLICANT_NAME_KEYS.last]: row.lastName ?? '',
  };
  return {
    id: row.id,
    email: row.email,
    nameAnswers,
    name: formatApplicantName(nameAnswers),
    submittedAt: row.submittedAt,
    version: row.version,
    status: row.submittedAt ? 'submitted' : 'started',
  };
}

/** The WHERE conditions of a selection by status, round and submission time. */
export function buildSelectionFilters(
  criteria: Pick<SelectionCriteria, 'status' | 'round' | 'since' | 'until'>,
): SQL[] {
  const where: SQL[] = [];
  if (criteria.status === 'submitted') where.push(isNotNull(applications.submittedAt));
  if (criteria.status === 'started') where.push(isNull(applications.submittedAt));
  // applications.round_code: the round the application belongs to (docs/rounds.md).
  if (criteria.round !== null) where.push(sql`${applications}.round_code = ${criteria.round}`);
  if (criteria.since) where.push(gte(applications.submittedAt, criteria.since));
  if (criteria.until) where.push(lt(applications.submittedAt, criteria.until));
  return where;
}

async function selectByIds(db: Db, ids: string[], where: SQL[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const uuids = chunk.filter((v) => UUID.test(v));
    const emails = chunk.filter((v) => !UUID.test(v));
    const match = or(
      uuids.length > 0 ? inArray(applications.id, uuids) : undefined,
      emails.length > 0 ? inArray(users.email, emails) : undefined,
    );
    rows.push(
      ...(await db
        .select(columns)
        .from(applications)
        .innerJoin(users, sql`${users.id} = ${applications.userId}`)
        .where(and(match, ...where))),
    );
  }
  return rows;
}

/**
 * The applications to export, oldest submission first (then by id, so the order is stable), and
 * the listed ids or e-mails that matched none of them, with the reason.
 */
export async function selectApplications(
  db: Db,
  criteria: SelectionCriteria,
): Promise<{ applications: SelectedApplication[]; unmatched: UnmatchedId[] }> {
  const where = buildSelectionFilters(criteria);
  if (criteria.ids === null) {
    const rows = await db
      .select(columns)
      .from(applications)
      .innerJoin(users, sql`${users.id} = ${applications.userId}`)
      .where(and(...where))
      .orderBy(sql`${applications.submittedAt} ASC NULLS LAST`, asc(applications.id));
    return { applications: rows.map(toSelected), unmatched: [] };
  }
  const selected = await selectByIds(db, criteria.ids, where);
  const unmatched: UnmatchedId[] = [];
  const found = new Set(selected.flatMap((r) => [r.id, r.email]));
  const missing = criteria.ids.filter((v) => !found.has(v));
  if (missing.length > 0) {
    // Tell "no such application" apart from "exists but outside the filters".
    const existing = await selectByIds(db, missing, []);
    const byKey = new Map(existing.flatMap((r) => [[r.id, r] as const, [r.email, r] as const]));
    for (const value of missing) {
      const row = byKey.get(value);
      unmatched.push({
        value,
        reason: !row
          ? 'no application with this id or e-mail'
          : row.submittedAt
            ? 'submitted outside the selected status or dates'
            : 'not submitted (use --status started or all)',
      });
    }
  }
  selected.sort(
    (a, b) =>
      (a.submittedAt?.getTime() ?? Infinity) - (b.submittedAt?.getTime() ?? Infinity) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { applications: selected.map(toSelected), unmatched };
}
