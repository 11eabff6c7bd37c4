// Search text is compared in one normal form, computed in JS both when rows are imported and when
// a query arrives, so PGlite and PostgreSQL see the same bytes and no unaccent extension is needed.

// Letters that Unicode decomposition leaves alone but a person typing on a US keyboard spells out.
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ĸ: 'k',
};

/**
 * Lowercase, without accents, letters and digits only, words separated by one space:
 * "St. Mary's Académie" → "st marys academie". Apostrophes join (Mary's → marys); every other
 * mark separates words.
 */
export function normalizeSearchText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþıĸ]/g, (c) => FOLDS[c] ?? c)
    .replace(/['’`ʼ]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Escapes LIKE's wildcards and its escape character (used with ESCAPE '\'). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
