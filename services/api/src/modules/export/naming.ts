// File names of exported PDFs: `lastname_firstname_<application id>.pdf`, made only of ASCII
// letters, digits, `_` and `-`, so they are safe on every file system, in zip archives and in
// the records systems that import them. The application id makes them unique; the name part is
// derived from the answers alone, so the same application keeps the same name from run to run.

/** Letters that Unicode decomposition does not reduce to ASCII. */
const LATIN: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŋ: 'ng',
  Ŋ: 'Ng',
  ĸ: 'q',
  ŀ: 'l',
  Ŀ: 'L',
  ſ: 's',
};

/** Cyrillic (a simple BGN/PCGN-style scheme; lowercase, the caller keeps case where it can). */
const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
  ў: 'u',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ђ: 'dj',
  ћ: 'c',
  џ: 'dz',
  ѕ: 'dz',
};

const GREEK: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

function transliterateChar(char: string): string {
  const latin = LATIN[char];
  if (latin !== undefined) return latin;
  const lower = char.toLowerCase();
  // Cyrillic before decomposition (й is not и with a mark); Greek by its base letter (έ → ε).
  const cyrillic = CYRILLIC[lower];
  if (cyrillic !== undefined) return cyrillic;
  return GREEK[lower.normalize('NFD').charAt(0)] ?? char;
}

/** A name reduced to ASCII where a transliteration exists; other scripts are dropped later. */
export function transliterate(value: string): string {
  const mapped = Array.from(value.normalize('NFC'), transliterateChar).join('');
  return mapped.normalize('NFKD').replace(/\p{M}+/gu, '');
}

const MAX_PART = 40;

/**
 * One part of the file name: ASCII letters and digits in lowercase, words joined by `-`. Never
 * `_` (the separator), `.`, `/` or `\`, so a name like "../../etc" becomes "etc".
 */
export function safeNamePart(value: string): string {
  return transliterate(value)
    .replace(/['’`]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, MAX_PART)
    .replace(/-+$/, '');
}

/** The id is ours (a UUID), but it is checked anyway: it ends up in a path. */
function safeId(id: string): string {
  const cleaned = id.toLowerCase().replace(/[^a-z0-9-]/g, '');
  if (cleaned === '') throw new Error('an application id must not be empty');
  return cleaned;
}

/** `lastname_firstname_<id>.pdf`; a part with nothing left after cleaning is left out. */
export function exportFileName(lastName: string, firstName: string, applicationId: string): string {
  const parts = [safeNamePart(lastName), safeNamePart(firstName)].filter((p) => p !== '');
  return `${[...parts, safeId(applicationId)].join('_')}.pdf`;
}
