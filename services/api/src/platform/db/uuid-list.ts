// A list of uuids as ONE bound parameter (`= ANY(…)`), where drizzle's inArray binds one parameter
// per value: a page of 500 ids built 500 parameter nodes per query, which cost more CPU than the
// query's rows (the data export's profile). The list travels as PostgreSQL's array literal, text
// both drivers bind alike; each value is checked to be a uuid first, so nothing else can enter it.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `column = ANY('{…}'::uuid[])`: true for the rows whose `column` is one of `ids`. */
export function isAnyUuid(column: SQLWrapper, ids: readonly string[]): SQL {
  for (const id of ids) {
    if (!UUID.test(id)) throw new Error(`not a uuid: ${JSON.stringify(id.slice(0, 40))}`);
  }
  return sql`${column} = ANY(${`{${ids.join(',')}}`}::uuid[])`;
}
