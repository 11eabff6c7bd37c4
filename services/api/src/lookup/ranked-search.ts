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

// Ties are broken the same way on both drivers: byte order ("C"), not the database's locale,
// which could otherwise sort "ab c" and "abb" differently on PostgreSQL and PGlite.
const ORDER = (key: string) => `length(search_text), search_text COLLATE "C", ${key} COLLATE "C"`;
// Fuzzy matching needs a few characters to say anything; below that it only adds noise.
const FUZZY_MIN_LENGTH = 3;

/**
 * Up to `limit` rows for `text`, best first: names starting with the text, then names whose words
 * start with each word of the text, then names similar to it (pg_trgm word similarity). Each tier
 * runs only when the ones before it left room, so the common case is one index range scan.
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
  values.push(limit - found.length);
  const byWords = (
    await database.executeSql(
      `SELECT ${columns} FROM ${table}
       WHERE NOT (search_text LIKE $1 ESCAPE '\\') AND ${wordConditions.join(' AND ')}
       ORDER BY ${ORDER(key)} LIMIT $${values.length}`,
      values,
    )
  ).rows;
  found.push(...byWords);
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
