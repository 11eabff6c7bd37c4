// The PDF's fonts: DejaVu Sans (Latin with its extensions, Greek, Cyrillic and more) with Noto Sans
// CJK SC behind it for Chinese, Japanese and Korean, both from Debian packages
// (scripts/ensure-system-packages.sh installs fonts-dejavu-core and fonts-noto-cjk). react-pdf picks
// a font per character from the family list, so one run of text may mix both.
import { existsSync } from 'node:fs';
import { Font } from '@react-pdf/renderer';
import { tuneFontStack, type FontkitFont } from './fast-shaping';

export const BODY_FAMILY = 'AnswerSans';
export const CJK_FAMILY = 'AnswerCJK';
/** The family list every text node uses: a per-character fallback from DejaVu to Noto CJK. */
export const FONT_STACK = [BODY_FAMILY, CJK_FAMILY];

interface FontFace {
  family: string;
  weight: 400 | 700;
  file: string;
  /** A face inside a TrueType/OpenType collection (.ttc), picked by its PostScript name. */
  postscriptName?: string;
  debianPackage: string;
}

const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const NOTO_CJK = '/usr/share/fonts/opentype/noto';

// Debian's paths by default; a deployment that keeps the same files elsewhere passes its folders
// to warmPdfRenderer (the first call to load the fonts decides for the process).
export interface PdfFontPaths {
  dejavuDir?: string;
  notoCjkDir?: string;
}

/** The four faces the PDF uses, at Debian's paths or the given folders. */
export function listFontFaces({
  dejavuDir = DEJAVU,
  notoCjkDir = NOTO_CJK,
}: PdfFontPaths): FontFace[] {
  return [
    {
      family: BODY_FAMILY,
      weight: 400,
      file: `${dejavuDir}/DejaVuSans.ttf`,
      debianPackage: 'fonts-dejavu-core',
    },
    {
      family: BODY_FAMILY,
      weight: 700,
      file: `${dejavuDir}/DejaVuSans-Bold.ttf`,
      debianPackage: 'fonts-dejavu-core',
    },
    {
      family: CJK_FAMILY,
      weight: 400,
      file: `${notoCjkDir}/NotoSansCJK-Regular.ttc`,
      postscriptName: 'NotoSansCJKsc-Regular',
      debianPackage: 'fonts-noto-cjk',
    },
    {
      family: CJK_FAMILY,
      weight: 700,
      file: `${notoCjkDir}/NotoSansCJK-Bold.ttc`,
      postscriptName: 'NotoSansCJKsc-Bold',
      debianPackage: 'fonts-noto-cjk',
    },
  ];
}

/**
 * Throws a readable error naming the Debian packages when a font file is missing, rather than
 * letting a PDF print without its glyphs.
 */
export function assertPdfFontFiles(paths: PdfFontPaths = {}): void {
  const missing = listFontFaces(paths).filter((face) => !existsSync(face.file));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((face) => face.debianPackage))].join(' ');
  throw new Error(
    `The application PDF needs font files that are missing: ${missing.map((f) => f.file).join(', ')}. ` +
      `Install them with: apt-get install ${packages} (scripts/ensure-system-packages.sh does).`,
  );
}

let registered: Promise<void> | undefined;

/**
 * Registers and loads the fonts once per process (the CJK collection is ~19 MB; fontkit reads its
 * tables lazily and react-pdf keeps the parsed face). Fails as assertPdfFontFiles does.
 */
export function loadPdfFonts(paths: PdfFontPaths = {}): Promise<void> {
  registered ??= (async () => {
    assertPdfFontFiles(paths);
    const list = listFontFaces(paths);
    for (const face of list) {
      Font.register({
        family: face.family,
        src: face.file,
        fontWeight: face.weight,
        ...(face.postscriptName ? { postscriptName: face.postscriptName } : {}),
      });
    }
    // Words are never hyphenated: the English patterns cost time on every word, and answers are
    // names, codes and prose in any language. Long unbroken strings still wrap (see splitLongWord).
    Font.registerHyphenationCallback(splitForLineBreaking);
    for (const weight of [400, 700] as const) {
      const stack: FontkitFont[] = [];
      for (const family of FONT_STACK) {
        const source = Font.getFont({ fontFamily: family, fontWeight: weight });
        await source.load();
        stack.push(source.data as unknown as FontkitFont);
      }
      tuneFontStack(stack);
    }
  })();
  registered.catch(() => {
    registered = undefined;
  });
  return registered;
}

// textkit breaks lines only at spaces and at the "syllables" this callback returns. Ideographs and
// kana may break between any two characters, and a word longer than a line could ever hold (a URL,
// an unbroken string) between pieces of it. The empty strings between the pieces become zero-width
// break opportunities, so no hyphen is drawn and the text copies out of the PDF unchanged.
const BREAK_ANYWHERE = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/u;
const LONG_WORD = 40;

export function splitForLineBreaking(word: string): string[] {
  if (word.length <= 1) return [word];
  let pieces: string[];
  if (BREAK_ANYWHERE.test(word)) pieces = Array.from(word);
  else if (word.length <= LONG_WORD) return [word];
  else {
    const chars = Array.from(word);
    pieces = [];
    for (let i = 0; i < chars.length; i += LONG_WORD / 2) {
      pieces.push(chars.slice(i, i + LONG_WORD / 2).join(''));
    }
  }
  return pieces.flatMap((piece, i) => (i === 0 ? [piece] : ['', piece]));
}
