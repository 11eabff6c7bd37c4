// The lookup module's tables: autocomplete categories and their word index. Only this module
// writes them.
import { index, pgTable, primaryKey, text, type ExtraConfigColumn } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

// Lookups (docs/data-model.md autocomplete categories): one table per category. `search_text` is the name
// lowercased, unaccented and reduced to letters, digits and single spaces by normalizeSearchText()
// in JS at import time, so both drivers compare the same bytes. A text_pattern_ops btree serves
// prefix matches; a pg_trgm GIN index serves word-prefix and fuzzy matches.
const lookupSearchIndexes = (table: string, searchText: ExtraConfigColumn) => [
  index(`${table}_prefix_idx`).on(searchText.op('text_pattern_ops')),
  index(`${table}_trgm_idx`).using('gin', searchText.op('gin_trgm_ops')),
];

const schoolColumns = () => ({
  /** The CEEB code (or an institution's own code): the upsert key of `lookup import`. */
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  street: text('street').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  zip: text('zip').notNull().default(''),
  country: text('country').notNull().default('USA'),
  searchText: text('search_text').notNull(),
  /** 'sample' rows ship with the embedded default; the first real import of a category removes them. */
  source: text('source').notNull().default('import'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const lookupHighSchools = pgTable('lookup_high_schools', schoolColumns(), (t) =>
  lookupSearchIndexes('lookup_high_schools', t.searchText),
);

export const lookupColleges = pgTable('lookup_colleges', schoolColumns(), (t) =>
  lookupSearchIndexes('lookup_colleges', t.searchText),
);

/** Addresses for ADDRESS_PROVIDER=database (an institution's own address file). */
export const lookupAddresses = pgTable(
  'lookup_addresses',
  {
    id: text('id').primaryKey(),
    addressLine1: text('address_line_1').notNull(),
    addressLine2: text('address_line_2').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    country: text('country').notNull().default('USA'),
    searchText: text('search_text').notNull(),
    source: text('source').notNull().default('import'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => lookupSearchIndexes('lookup_addresses', t.searchText),
);

/**
 * Every word of every lookup row's search_text, with the row it came from (`source` is the lookup
 * table's name, `key` the row's code or id). The word tier of the search walks this index in
 * search_text order, so "truth" finds "Sojourner Truth …" without rechecking thousands of rows.
 * Rebuilt by lookup-import.ts after every import; never written by requests.
 */
export const lookupWords = pgTable(
  'lookup_words',
  {
    source: text('source').notNull(),
    word: text('word').notNull(),
    searchText: text('search_text').notNull(),
    key: text('key').notNull(),
  },
  // No primary key: rows are only ever inserted DISTINCT by the rebuild, and this one index serves
  // every read.
  (t) => [
    index('lookup_words_order_idx').on(
      t.source,
      t.word,
      t.searchText.op('text_pattern_ops'),
      t.key.op('text_pattern_ops'),
    ),
  ],
);

/** The distinct words per lookup table: prefix expansion and typo correction of typed words. */
export const lookupVocabulary = pgTable(
  'lookup_vocabulary',
  {
    source: text('source').notNull(),
    word: text('word').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.word] }),
    index('lookup_vocabulary_prefix_idx').on(t.source, t.word.op('text_pattern_ops')),
    // fastupdate off: a freshly rebuilt vocabulary is searched at once, and GIN's pending list
    // (unmerged until the next vacuum) made each typo lookup scan it linearly (5 ms instead of 0.15).
    index('lookup_vocabulary_trgm_idx')
      .using('gin', t.word.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
  ],
);
