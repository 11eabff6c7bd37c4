import type { Database } from '../db/connect';
import { escapeLike, normalizeSearchText } from './normalize';

/** A lookup table searched through its normalized `search_text` column (see db/schema.ts). */
export interface SearchableTable {
  /** A fixed table name from this module's callers, never user input. */
  table: string;
  key: string;
  /** The columns to return, as SQL. */
  columns: string;
}

// Ties are broken the same way on both drivers: byte order (the text_pattern_ops operator ~<~,
// which the prefix index can also return rows in), not the database's locale, which could sort
// "ab c" and "abb" differently on PostgreSQL and PGlite.
const ORDER = (key: string) => `search_text USING ~<~, ${key} USING ~<~`;
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// Fuzzy matching needs a few characters to say anything; below that it only adds noise.
const FUZZY_MIN_LENGTH = 3;
// Word matches up to this many are fetched whole and sorted here; more than that means the words
// are common, and then walking the prefix index in order finds the first ones at once.
const WORD_PROBE = 1000;

/**
 * Up to `limit` rows for `text`, best first: names starting with the text, then names whose words
 * start with each word of the text, then names similar to it (pg_trgm word similarity). Each tier
 * runs only when the ones before it left room; within the first two, names are in byte order.
 */
export async function searchRanked(
  database: Database,
  spec: SearchableTable,
  text: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const query = normalizeSearchText(text);
  if (query === '' || limit < 1) return [];
  const { table, key, columns } = spec;
  const prefix = `${escapeLike(query)}%`;
  const found = (
    await database.executeSql(
      `SELECT ${columns} FROM ${table} WHERE search_text LIKE $1 ESCAPE '\\'
       ORDER BY ${ORDER(key)} LIMIT $2`,
      [prefix, limit],
    )
  ).rows;
  if (found.length >= limit) return found;

  // Every word of the text starts a word of the name ("lincoln hi" → "Abraham Lincoln High").
  const words = query.split(' ');
  const values: unknown[] = [prefix];
  const wordConditions = words.map((word) => {
    values.push(`${escapeLike(word)}%`, `% ${escapeLike(word)}%`);
    const at = values.length;
    return `(search_text LIKE $${at - 1} ESCAPE '\\' OR search_text LIKE $${at} ESCAPE '\\')`;
  });
  const where = `NOT (search_text LIKE $1 ESCAPE '\\') AND ${wordConditions.join(' AND ')}`;
  const room = limit - found.length;
  // Rare words: the trigram index finds the few rows, sorted here. Common words: the ordered
  // index scan stops after `room` rows. Both give the same rows in the same order.
  const probe = (
    await database.executeSql(
      `SELECT ${columns}, search_text FROM ${table} WHERE ${where} LIMIT ${WORD_PROBE + 1}`,
      values,
    )
  ).rows;
  const byWords =
    probe.length <= WORD_PROBE
      ? probe
          .sort(
            (a, b) =>
              byteOrder(String(a.search_text), String(b.search_text)) ||
              byteOrder(String(a[key]), String(b[key])),
          )
          .slice(0, room)
      : (
          await database.executeSql(
            `SELECT ${columns} FROM ${table} WHERE ${where}
             ORDER BY ${ORDER(key)} LIMIT $${values.length + 1}`,
            [...values, room],
          )
        ).rows;
  for (const row of byWords) {
    delete row.search_text;
    found.push(row);
  }
  if (found.length >= limit || query.length < FUZZY_MIN_LENGTH) return found;

  // Typos: pg_trgm's `<%` (word similarity above its default threshold, 0.6) uses the GIN index.
  const seen = new Set(found.map((row) => String(row[key])));
  const fuzzy = (
    await database.executeSql(
      `SELECT ${columns} FROM ${table} WHERE $1 <% search_text
       ORDER BY word_similarity($1, search_text) DESC, ${ORDER(key)} LIMIT $2`,
      [query, limit + found.length],
    )
  ).rows;
  for (const row of fuzzy) {
    if (found.length >= limit) break;
    if (!seen.has(String(row[key]))) found.push(row);
  }
  return found;
}
