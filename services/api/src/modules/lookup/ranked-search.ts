import type { Database } from '../../platform/db/connect';
import { escapeLike, normalizeSearchText } from './normalize';

/** A lookup table searched through its normalized `search_text` column (see schema.ts). */
export interface SearchableTable {
  /** A fixed table name from this module's callers, never user input. */
  table: string;
  key: string;
  /** The columns to return, as SQL. */
  columns: string;
}

type Row = Record<string, unknown>;

// Ties are broken the same way on both drivers: byte order (the text_pattern_ops operator ~<~,
// which the prefix index can also return rows in), not the database's locale, which could sort
// "ab c" and "abb" differently on PostgreSQL and PGlite.
const ORDER = (key: string) => `search_text USING ~<~, ${key} USING ~<~`;
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// Fuzzy matching needs a few characters to say anything; below that it only adds noise.
const FUZZY_MIN_LENGTH = 3;
// A typed word standing for more distinct words than this ("a", "1") is walked in the old way,
// through the prefix index in order, instead of through the word index one word at a time.
const MAX_EXPANSION = 200;
// Word matches up to this many are fetched whole and sorted here (the fallback word tier).
const WORD_PROBE = 1000;
// How many known words a misspelt word may stand for ("linclon": lincon, lincoln, …).
const CORRECTIONS = 3;

/** Each typed word with what it may stand for: itself, or the known words closest to a typo. */
type WordChoices = readonly (readonly string[])[];

const asChoices = (query: string): WordChoices => query.split(' ').map((word) => [word]);

/**
 * Up to `limit` rows for `text`, best first: names starting with the text, then names whose words
 * start with each word of the text (both in byte order of the name), then, for typos, names whose
 * words start with the typed words where each unknown word is read as one of the known words
 * closest to it, and last names similar to the whole text (pg_trgm word similarity).
 */
export async function searchRanked(
  database: Database,
  spec: SearchableTable,
  text: string,
  limit: number,
): Promise<Row[]> {
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
  const seen = () => found.map((row) => String(row[key]));
  if (found.length < limit) {
    found.push(
      ...(await searchWordStarts(database, spec, asChoices(query), limit - found.length, seen())),
    );
  }
  if (found.length >= limit || query.length < FUZZY_MIN_LENGTH) return found;

  const typed = query.split(' ');
  const corrected = await correctWords(database, table, typed);
  const changed = corrected.some((choices, i) => choices.length !== 1 || choices[0] !== typed[i]);
  if (changed && corrected.every((choices) => choices.length > 0)) {
    const more = await searchWordStarts(database, spec, corrected, limit - found.length, seen());
    found.push(...more);
    // The corrected words explain the typo; similarity over the whole table would mostly repeat it.
    if (more.length > 0) return found;
  }
  found.push(...(await searchSimilar(database, spec, query, limit - found.length, seen())));
  return found;
}

/**
 * Rows not yet found in which every typed word (or one of its choices) starts a word of the name
 * ("lincoln hi" → "Abraham Lincoln High"), in name order. The most specific typed word is expanded
 * to the known words it starts (lookup_vocabulary), and for each of those the word index
 * (lookup_words) is walked in name order, so the first `room` rows come at once however many
 * names share the word.
 */
async function searchWordStarts(
  database: Database,
  spec: SearchableTable,
  words: WordChoices,
  room: number,
  exclude: readonly string[],
): Promise<Row[]> {
  const { table, key, columns } = spec;
  const driver = words.reduce((a, b) => (rankDriver(b) > rankDriver(a) ? b : a));
  const starts = (choices: readonly string[]) => choices.map((word) => `${escapeLike(word)}%`);
  const driverStarts = starts(driver);
  const expansion = (
    await database.executeSql(
      `SELECT word FROM lookup_vocabulary WHERE source = $1
       AND (${driverStarts.map((_, i) => `word LIKE $${i + 2} ESCAPE '\\'`).join(' OR ')})
       ORDER BY word USING ~<~ LIMIT ${MAX_EXPANSION + 1}`,
      [table, ...driverStarts],
    )
  ).rows.map((row) => String(row.word));
  if (expansion.length === 0) return [];
  if (expansion.length > MAX_EXPANSION) return scanWordStarts(database, spec, words, room, exclude);

  const values: unknown[] = [expansion, room, exclude, table];
  const others = words
    .filter((choices) => choices !== driver)
    .map((choices) => ` AND (${matchWordStarts('lw.search_text', choices, values)})`)
    .join('');
  return (
    await database.executeSql(
      `SELECT ${columns} FROM (
         SELECT DISTINCT s.search_text AS found_text, s.key AS found_key
         FROM unnest($1::text[]) AS v(word)
         CROSS JOIN LATERAL (
           SELECT lw.search_text, lw.key FROM lookup_words lw
           WHERE lw.source = $4 AND lw.word = v.word AND NOT (lw.key = ANY($3::text[]))${others}
           ORDER BY lw.search_text USING ~<~, lw.key USING ~<~ LIMIT $2
         ) s
         ORDER BY found_text USING ~<~, found_key USING ~<~ LIMIT $2
       ) m JOIN ${table} ON ${table}.${key} = m.found_key
       ORDER BY m.found_text USING ~<~, m.found_key USING ~<~`,
      values,
    )
  ).rows;
}

/** SQL that holds when one of `choices` starts a word of `column`; patterns go into `values`. */
function matchWordStarts(column: string, choices: readonly string[], values: unknown[]): string {
  return choices
    .map((word) => {
      values.push(`${escapeLike(word)}%`, `% ${escapeLike(word)}%`);
      const at = values.length;
      return `${column} LIKE $${at - 1} ESCAPE '\\' OR ${column} LIKE $${at} ESCAPE '\\'`;
    })
    .join(' OR ');
}

/**
 * Which typed word to walk the index by: the one likely to match the fewest names. A word as typed
 * beats a corrected one (one choice, not several); numbers (a street number, a code) are the most
 * specific; otherwise longer words match fewer names.
 */
function rankDriver(choices: readonly string[]): number {
  const word = choices[0] ?? '';
  return (choices.length === 1 ? 10_000 : 0) + (/\d/.test(word) ? 1000 : 0) + word.length;
}

/** The word tier without the word index: for typed words that stand for very many words. */
async function scanWordStarts(
  database: Database,
  spec: SearchableTable,
  words: WordChoices,
  room: number,
  exclude: readonly string[],
): Promise<Row[]> {
  const { table, key, columns } = spec;
  const values: unknown[] = [exclude];
  const wordConditions = words.map(
    (choices) => `(${matchWordStarts('search_text', choices, values)})`,
  );
  const where = `NOT (${key} = ANY($1::text[])) AND ${wordConditions.join(' AND ')}`;
  // Rare words: the trigram index finds the few rows, sorted here. Common words: the ordered
  // index scan stops after `room` rows. Both give the same rows in the same order.
  const probe = (
    await database.executeSql(
      `SELECT ${columns}, search_text FROM ${table} WHERE ${where} LIMIT ${WORD_PROBE + 1}`,
      values,
    )
  ).rows;
  const rows =
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
            `SELECT ${columns}, search_text FROM ${table} WHERE ${where}
             ORDER BY ${ORDER(key)} LIMIT $${values.length + 1}`,
            [...values, room],
          )
        ).rows;
  for (const row of rows) delete row.search_text;
  return rows;
}

/**
 * The typed words, each unknown one (it starts no known word) replaced by the known words most
 * similar to it (pg_trgm similarity over the small vocabulary table): "abrham" → abraham. Words too
 * short to judge stay as typed; an unknown word with nothing similar enough gets no choices.
 */
async function correctWords(
  database: Database,
  table: string,
  typed: readonly string[],
): Promise<string[][]> {
  const corrected: string[][] = [];
  for (const word of typed) {
    corrected.push(
      word.length < FUZZY_MIN_LENGTH ? [word] : await correctWord(database, table, word),
    );
  }
  return corrected;
}

async function correctWord(database: Database, table: string, word: string): Promise<string[]> {
  const known = await database.executeSql(
    `SELECT 1 FROM lookup_vocabulary WHERE source = $1 AND word LIKE $2 ESCAPE '\\' LIMIT 1`,
    [table, `${escapeLike(word)}%`],
  );
  if (known.rows.length > 0) return [word];
  const closest = await database.executeSql(
    `SELECT word FROM lookup_vocabulary WHERE source = $1 AND word % $2
     ORDER BY similarity(word, $2) DESC, word USING ~<~ LIMIT ${CORRECTIONS}`,
    [table, word],
  );
  return closest.rows.map((row) => String(row.word));
}

/** Typos the word tiers could not explain: pg_trgm's `<%` (word similarity ≥ 0.6, GIN index). */
async function searchSimilar(
  database: Database,
  spec: SearchableTable,
  query: string,
  room: number,
  exclude: readonly string[],
): Promise<Row[]> {
  if (room < 1) return [];
  const { table, key, columns } = spec;
  return (
    await database.executeSql(
      `SELECT ${columns} FROM ${table} WHERE $1 <% search_text AND NOT (${key} = ANY($3::text[]))
       ORDER BY word_similarity($1, search_text) DESC, ${ORDER(key)} LIMIT $2`,
      [query, room, exclude],
    )
  ).rows;
}
