// Per-font speed-ups for react-pdf's text layout, applied once to each loaded fontkit face.
//
// Profiling a seven-page application showed fontkit's OpenType shaping (GSUB/GPOS lookups run for
// every run of text) as the largest single cost, then the per-character font lookups that font
// fallback makes and the metric getters textkit reads per character. Text in scripts that need no
// shaping — Latin and its extensions, Greek, Cyrillic, CJK, general punctuation — maps one code
// point to one glyph, so for those strings a cmap lookup and the glyph's advance give the same
// glyphs (only pair kerning and the optional fi/fl ligatures are left out). Any other script
// (Arabic, Hebrew, Indic, combining marks …) still goes through fontkit's full shaper.

/** The part of a fontkit face this file touches (fontkit's own types are not exported by react-pdf). */
export interface FontkitGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}
export interface FontkitPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
export interface FontkitRun {
  glyphs: FontkitGlyph[];
  positions: FontkitPosition[];
  advanceWidth?: number;
  [key: string]: unknown;
}
export interface FontkitFont {
  postscriptName: string;
  numGlyphs: number;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
  capHeight: number;
  xHeight: number;
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): FontkitGlyph;
  getGlyph(id: number, codePoints?: number[]): FontkitGlyph;
  layout(string: string, ...rest: unknown[]): FontkitRun;
}

const tuned = new WeakSet<object>();

/** Whether every UTF-16 unit of the string belongs to a script drawn one glyph per code point. */
export function needsNoShaping(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0300) continue; // Basic Latin … Latin Extended-B, IPA, spacing modifiers
    if (c >= 0x0370 && c < 0x0483) continue; // Greek, Cyrillic (before its combining marks)
    if (c >= 0x048a && c < 0x0530) continue; // rest of Cyrillic, Cyrillic Supplement
    if (c >= 0x1e00 && c < 0x2000) continue; // Latin Extended Additional, Greek Extended
    if (c >= 0x2010 && c < 0x2028) continue; // dashes, quotes, bullets, ellipsis
    if (c >= 0x2030 && c < 0x205f) continue; // per mille, primes, other punctuation
    if (c >= 0x20a0 && c < 0x20c1) continue; // currency signs
    if (c >= 0x2100 && c < 0x2190) continue; // letterlike symbols, number forms
    if (c >= 0x3000 && c < 0xa000) continue; // CJK punctuation, kana, CJK ideographs
    if (c >= 0xac00 && c < 0xd7a4) continue; // Hangul syllables
    if (c >= 0xff01 && c < 0xffa0) continue; // full-width and half-width forms
    if (c === REPLACEMENT) continue; // what tuneFontStack draws for characters no face has
    return false;
  }
  return true;
}

const REPLACEMENT = 0xfffd;

/**
 * Tunes the faces of one fallback list (first face first), see tuneFont. The first face also
 * answers for characters no face of the list has, drawing each as U+FFFD "�": react-pdf would
 * otherwise hand them to the last face, which draws its empty .notdef glyph (or, for a script it
 * cannot shape, stray glyphs) — a character must never print as nothing.
 */
export function tuneFontStack(stack: readonly FontkitFont[]): void {
  const [first, ...rest] = stack;
  if (!first) return;
  for (const font of rest) tuneFont(font);
  const fallbackFor = first.hasGlyphForCodePoint(REPLACEMENT) ? rest : undefined;
  tuneFont(first, fallbackFor);
}

/**
 * Makes a face cheaper for textkit without changing what it draws for the scripts above:
 * constant metrics become plain properties, code-point coverage is memoised, and text that needs
 * no shaping is laid out from the cmap directly. With `fallbackFor`, the face also claims every
 * character that neither it nor those faces have, and draws it as U+FFFD. Idempotent.
 */
export function tuneFont(font: FontkitFont, fallbackFor?: readonly FontkitFont[]): void {
  if (tuned.has(font)) return;
  tuned.add(font);

  // Getters that re-read font tables on every call; textkit reads them per character and line.
  for (const key of [
    'unitsPerEm',
    'ascent',
    'descent',
    'lineGap',
    'capHeight',
    'xHeight',
  ] as const) {
    const value = font[key];
    Object.defineProperty(font, key, { value, writable: false, configurable: true });
  }

  // pdfkit receives the face object (not a name) for every run it draws, so it cannot find the
  // font it embedded by key and compares the new one with it by JSON-serialising both fonts' name
  // tables — DejaVu's carries its whole licence, which made this ~10 % of a render. The records
  // serialise to the face's PostScript name and table checksum instead: what identifies a face.
  const identity = JSON.stringify([font.postscriptName, font.unitsPerEm, font.numGlyphs]);
  const names = (font as unknown as { _tables?: { name?: { records?: object } } })._tables?.name;
  if (names?.records) {
    Object.defineProperty(names.records, 'toJSON', { value: () => identity, enumerable: false });
  }

  // fontkit caches one glyph object per glyph id, with the code points of whoever asked first, and
  // pdfkit writes a glyph's code points into the PDF's ToUnicode map. Subsetting asks for the
  // components of composite glyphs without code points — DejaVu draws Cyrillic р and Greek Ε from
  // the Latin p and E — so after one PDF with "Дмитрий" every later PDF's p would copy and search
  // as nothing. A later lookup that knows the code points repairs the cached glyph.
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id: number, codePoints: number[] = []) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && glyph.codePoints.length === 0 && codePoints.length > 0) {
      glyph.codePoints = codePoints;
    }
    return glyph;
  };

  const coverage = new Map<number, boolean>();
  const ownGlyph = font.hasGlyphForCodePoint.bind(font);
  const hasOwnGlyph = (codePoint: number) => {
    let has = coverage.get(codePoint);
    if (has === undefined) {
      has = ownGlyph(codePoint);
      coverage.set(codePoint, has);
    }
    return has;
  };
  const missingEverywhere = (codePoint: number) =>
    fallbackFor !== undefined &&
    !hasOwnGlyph(codePoint) &&
    !fallbackFor.some((other) => other.hasGlyphForCodePoint(codePoint));
  font.hasGlyphForCodePoint = fallbackFor
    ? (codePoint) => hasOwnGlyph(codePoint) || missingEverywhere(codePoint)
    : hasOwnGlyph;
  // Characters no face has, as "�" (same number of code points, so textkit's indices still hold).
  const replaceMissing = (text: string): string => {
    if (!fallbackFor) return text;
    let replaced = '';
    let copiedUpTo = 0;
    for (let i = 0; i < text.length;) {
      const codePoint = text.codePointAt(i)!;
      const length = codePoint > 0xffff ? 2 : 1;
      if (missingEverywhere(codePoint)) {
        replaced += text.slice(copiedUpTo, i) + String.fromCharCode(REPLACEMENT);
        copiedUpTo = i + length;
      }
      i += length;
    }
    return copiedUpTo === 0 ? text : replaced + text.slice(copiedUpTo);
  };

  const glyphs = new Map<number, FontkitGlyph>();
  const glyphFor = (codePoint: number): FontkitGlyph => {
    let glyph = glyphs.get(codePoint);
    if (glyph === undefined) {
      glyph = font.glyphForCodePoint(codePoint);
      glyphs.set(codePoint, glyph);
    }
    return glyph;
  };

  const shape = font.layout.bind(font);
  font.layout = (original: string, ...rest: unknown[]): FontkitRun => {
    const text = replaceMissing(original);
    if (!needsNoShaping(text)) return shape(text, ...rest);
    const runGlyphs: FontkitGlyph[] = [];
    const positions: FontkitPosition[] = [];
    let advanceWidth = 0;
    for (let i = 0; i < text.length; i++) {
      const glyph = glyphFor(text.charCodeAt(i));
      const advance = glyph.advanceWidth;
      runGlyphs.push(glyph);
      positions.push({ xAdvance: advance, yAdvance: 0, xOffset: 0, yOffset: 0 });
      advanceWidth += advance;
    }
    return { glyphs: runGlyphs, positions, advanceWidth, direction: 'ltr' };
  };
}
