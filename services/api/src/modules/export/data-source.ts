// The data export's reading: the selected applications a page at a time, in submission order
// (then by id), so memory holds a page and never the selection. Each page is keyed on the last
// row of the one before (keyset paging: no OFFSET to rescan, no cursor to hold a transaction
// open); the sort key is compared as PostgreSQL's own text, which keeps its microseconds. A page
// is read in two steps: ids and versions first, so an incremental run reads the answers of the
// changed applications only, then their rows and checklists.
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { applications } from '../application';
import { readChecklists, type ChecklistSummary } from '../checklist';
import type { PartnerConfig } from '@admissions/form';
import { buildSelectionFilters, type SelectionCriteria } from './selection';

export interface DataRow {
  id: string;
  roundCode: string;
  submittedAt: Date | null;
  updatedAt: Date;
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
  cursorAt: string;
}

const sortKey = sql`COALESCE(${applications.submittedAt}, 'infinity'::timestamptz)`;

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
  const rows = await db
    .select({
      id: applications.id,
      roundCode: applications.roundCode,
      submittedAt: applications.submittedAt,
      updatedAt: applications.updatedAt,
      version: applications.version,
      answer: applications.answer,
      tabs: applications.tabs,
      sensitive: sensitive ? applications.sensitive : sql<null>`NULL`,
    })
    .from(applications)
    .where(inArray(applications.id, ids));
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

async function buildPage(db: Db, light: LightRow[], options: DataSourceOptions): Promise<DataPage> {
  const changed = options.isUnchanged
    ? light.filter((r) => !options.isUnchanged!(r.id, r.version))
    : light;
  const rows = await readRows(
    db,
    changed.map((r) => r.id),
    options.sensitive,
  );
  const checklists = await readChecklists(db, options.recommendations, rows);
  return { rows, unchanged: light.length - changed.length, checklists };
}

/**
 * The selection's pages in order. A caller that asks for the next page before writing the one in
 * hand has the database read it meanwhile.
 */
export async function* readDataPages(
  db: Db,
  selection: DataSelection,
  options: DataSourceOptions,
): AsyncGenerator<DataPage> {
  const where = buildSelectionFilters(selection);
  if (selection.ids !== null) {
    for (let i = 0; i < selection.ids.length; i += options.pageSize) {
      const chunk = selection.ids.slice(i, i + options.pageSize);
      const order = new Map(chunk.map((id, n) => [id, n]));
      const light = (
        await db
          .select({
            id: applications.id,
            version: applications.version,
            cursorAt: sql<string>`''`,
          })
          .from(applications)
          .where(and(inArray(applications.id, chunk), ...where))
      ).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      yield await buildPage(db, light, options);
    }
    return;
  }
  let after: LightRow | null = null;
  for (;;) {
    const light = await readLightPage(db, where, after, options.pageSize);
    if (light.length === 0) return;
    after = light.at(-1)!;
    yield await buildPage(db, light, options);
    if (light.length < options.pageSize) return;
  }
}
