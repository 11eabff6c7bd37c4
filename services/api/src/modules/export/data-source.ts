// The data export's reading: the selected applications a page at a time, in submission order
// (then by id), so memory holds a few pages and never the selection. Each page is keyed on the
// last row of the one before (keyset paging: no OFFSET to rescan, no cursor to hold a transaction
// open); the sort key is compared as PostgreSQL's own text, which keeps its microseconds. A page
// is read in two steps: ids and versions first, so an incremental run reads the answers of the
// changed applications only, then their rows and checklists — for up to READ_AHEAD pages at once,
// so the database works on the next pages while the caller writes this one. The rows are read as
// plain SQL with the times already ISO text: drizzle's mapping of each row and each Date cost
// more than the rest of a record.
import { and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { isAnyUuid } from '../../platform/db/uuid-list';
import { applications } from '../application';
import { readChecklists, type ChecklistSummary } from '../checklist';
import type { PartnerConfig } from '@admissions/form';
import { buildSelectionFilters, type SelectionCriteria } from './selection';

export interface DataRow {
  id: string;
  /** The student system's ID, once it sent one back. */
  externalId: string | null;
  roundCode: string;
  /** ISO 8601 in UTC with milliseconds, as Date.toISOString() writes it; null while started. */
  submittedAt: string | null;
  updatedAt: string;
  version: number;
  answer: Record<string, string>;
  tabs: Record<string, string>;
  /** The sealed answers, read only when they are to be exported. */
  sensitive: Record<string, string> | null;
}

export interface DataPage {
  /** The page's applications to export, in order. */
  rows: DataRow[];
  /** Applications of the page left out as unchanged (incremental). */
  unchanged: number;
  checklists: Map<string, ChecklistSummary>;
}

export interface DataSourceOptions {
  pageSize: number;
  /** Read the sealed column too. */
  sensitive: boolean;
  recommendations: PartnerConfig['recommendations'];
  /** True for an application whose version was exported already (incremental). */
  isUnchanged?: (id: string, version: number) => boolean;
}

/** Selection by status, round and time, or (staff exports) an ordered list of ids. */
export type DataSelection = Pick<SelectionCriteria, 'status' | 'round' | 'since' | 'until'> & {
  ids: readonly string[] | null;
};

interface LightRow {
  id: string;
  version: number;
  submittedAt: Date | null;
  cursorAt: string;
}

const sortKey = sql`COALESCE(${applications.submittedAt}, 'infinity'::timestamptz)`;
/** Pages whose rows are being read at once, besides the one the caller holds. */
const READ_AHEAD = 2;

const isoText = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** How many applications the selection holds now (for progress). */
export async function countSelected(db: Db, selection: DataSelection): Promise<number> {
  if (selection.ids !== null) return selection.ids.length;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(applications)
    .where(and(...buildSelectionFilters(selection)));
  return Number(row?.n ?? 0);
}

async function readLightPage(
  db: Db,
  where: SQL[],
  after: LightRow | null,
  limit: number,
): Promise<LightRow[]> {
  return db
    .select({
      id: applications.id,
      version: applications.version,
      submittedAt: applications.submittedAt,
      cursorAt: sql<string>`(${sortKey})::text`,
    })
    .from(applications)
    .where(
      and(
        ...where,
        after
          ? sql`(${sortKey}, ${applications.id}) > (${after.cursorAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sortKey, applications.id)
    .limit(limit);
}

async function readRows(db: Db, ids: string[], sensitive: boolean): Promise<DataRow[]> {
  if (ids.length === 0) return [];
  const a = applications;
  const { rows } = await db.execute<{
    id: string;
    external_id: string | null;
    round_code: string;
    submitted_at: string | null;
    updated_at: string;
    version: number;
    answer: Record<string, string>;
    tabs: Record<string, string>;
    sensitive: Record<string, string> | null;
  }>(sql`SELECT ${a.id} AS id, ${a.externalId} AS external_id, ${a.roundCode} AS round_code,
      ${isoText(sql`${a.submittedAt}`)} AS submitted_at, ${isoText(sql`${a.updatedAt}`)} AS updated_at,
      ${a.version} AS version, ${a.answer} AS answer, ${a.tabs} AS tabs,
      ${sensitive ? sql`${a.sensitive}` : sql`NULL::jsonb`} AS sensitive
    FROM ${a} WHERE ${isAnyUuid(a.id, ids)}`);
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows
    .map((r): DataRow => ({
      id: r.id,
      externalId: r.external_id,
      roundCode: r.round_code,
      submittedAt: r.submitted_at,
      updatedAt: r.updated_at,
      version: Number(r.version),
      answer: r.answer,
      tabs: r.tabs,
      sensitive: r.sensitive,
    }))
    .sort((x, y) => at.get(x.id)! - at.get(y.id)!);
}

async function buildPage(db: Db, light: LightRow[], options: DataSourceOptions): Promise<DataPage> {
  const changed = options.isUnchanged
    ? light.filter((r) => !options.isUnchanged!(r.id, r.version))
    : light;
  // The checklists are computed from the light rows' submission: both reads go at once.
  const [rows, checklists] = await Promise.all([
    readRows(
      db,
      changed.map((r) => r.id),
      options.sensitive,
    ),
    readChecklists(db, options.recommendations, changed),
  ]);
  return { rows, unchanged: light.length - changed.length, checklists };
}

/** The ids and versions of the selection, a page at a time, in order. */
async function* readLightPages(
  db: Db,
  selection: DataSelection,
  pageSize: number,
): AsyncGenerator<LightRow[]> {
  const where = buildSelectionFilters(selection);
  if (selection.ids !== null) {
    for (let i = 0; i < selection.ids.length; i += pageSize) {
      const chunk = selection.ids.slice(i, i + pageSize);
      const order = new Map(chunk.map((id, n) => [id, n]));
      const light = await db
        .select({
          id: applications.id,
          version: applications.version,
          submittedAt: applications.submittedAt,
          cursorAt: sql<string>`''`,
        })
        .from(applications)
        .where(and(isAnyUuid(applications.id, chunk), ...where));
      yield light.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    }
    return;
  }
  let after: LightRow | null = null;
  for (;;) {
    const light = await readLightPage(db, where, after, pageSize);
    if (light.length === 0) return;
    after = light.at(-1)!;
    yield light;
    if (light.length < pageSize) return;
  }
}

/** The selection's pages in order, the next ones being read while the caller holds one. */
export async function* readDataPages(
  db: Db,
  selection: DataSelection,
  options: DataSourceOptions,
): AsyncGenerator<DataPage> {
  const light = readLightPages(db, selection, options.pageSize);
  const ahead: Promise<DataPage>[] = [];
  let more = true;
  const fill = async () => {
    while (more && ahead.length < READ_AHEAD) {
      const next = await light.next();
      if (next.done) {
        more = false;
        return;
      }
      const page = buildPage(db, next.value, options);
      // Awaited in turn below; until then a failure must not count as unhandled.
      page.catch(() => undefined);
      ahead.push(page);
    }
  };
  try {
    await fill();
    while (ahead.length > 0) {
      const page = await ahead.shift()!;
      await fill();
      yield page;
    }
  } finally {
    // Stopped early (interrupted, or a failure): let the reads in flight end before returning.
    await Promise.allSettled(ahead);
    await light.return(undefined);
  }
}
