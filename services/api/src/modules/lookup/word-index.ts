// The word index of a lookup table (lookup_words and lookup_vocabulary, see schema.ts). It is
// derived data: rebuilt whole after every import, in one transaction, so searches running during an
// import see either the old index or the new one. Afterwards the planner gets fresh statistics,
// and the table's trigram index merges its pending list (GIN defers the rows a bulk import adds
// until the next vacuum, and until then every trigram search scans them one by one).
import type { Database } from '../../platform/db/connect';

/** A lookup table and the column that identifies its rows; both fixed names from our own code. */
export interface IndexedTable {
  table: string;
  key: string;
}

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;

export async function rebuildWordIndex(database: Database, { table, key }: IndexedTable) {
  // Names go into the SQL text (a parameterless script runs as one multi-statement transaction on
  // both drivers); they never come from input, and this keeps it that way.
  if (!SAFE_NAME.test(table) || !SAFE_NAME.test(key)) throw new Error(`bad lookup table ${table}`);
  await database.executeSql(`BEGIN;
    DELETE FROM lookup_words WHERE source = '${table}';
    DELETE FROM lookup_vocabulary WHERE source = '${table}';
    INSERT INTO lookup_words (source, word, search_text, key)
      SELECT DISTINCT '${table}', w, search_text, ${key}
      FROM ${table}, regexp_split_to_table(search_text, ' ') AS w WHERE w <> '';
    INSERT INTO lookup_vocabulary (source, word)
      SELECT DISTINCT source, word FROM lookup_words WHERE source = '${table}';
    COMMIT;
    ANALYZE lookup_words;
    ANALYZE lookup_vocabulary;
    SELECT gin_clean_pending_list('${table}_trgm_idx'::regclass);`);
}
