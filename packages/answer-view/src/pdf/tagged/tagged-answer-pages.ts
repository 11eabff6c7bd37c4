// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- pdfkit and fontkit ship no types: the declarations go wherever this file is compiled
/// <reference path="./pdfkit-modules.d.ts" />
// The cover and answer pages as a tagged PDF (PDF/UA-1), laid out with pdfkit from the view model.
// pdfkit writes the structure tree, the parent tree and the marked content as the text is drawn,
// embeds subsets of the fonts with ToUnicode maps, and its layout of plain lines of text is cheap:
// nothing is measured twice, there is no box tree. The structure follows the print view:
// Document > cover (P, H1 name, a table of the cover's facts) > per page a Sect with its H1 and,
// per section, a Sect with its H2 and a Table whose rows are TH (question) and TD (answer).
// Page numbers and rules are artifacts. A row's visual order stays as on the form ("[X] label"),
// its structure order is always TH then TD.
import PDFDocument, { type PdfKitStructureElement } from 'pdfkit';
import { openSync, type Font } from 'fontkit';
import { COVER_HEADING, listCoverLines } from '../../cover';
import { listSectionGroups } from '../../section-groups';
import type { AnswerRow, AnswerSectionView, AnswerView, ApplicationCover } from '../../view-model';
import { tuneFontStack, type FontkitFont } from '../fast-shaping';
import { assertPdfFontFiles, listFontFaces, type PdfFontPaths } from '../fonts';

const PAGE_WIDTH = 612;
const MARGIN = 54;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BODY_SIZE = 10;
const TEXT_COLOR = '#1a1a1a';
const NOTE_COLOR = '#555555';
/** Extra space between lines, so a 10 pt line takes the print layout's 13 pt. */
const LINE_GAP = 1.4;
const ROW_GAP = 4;
const PAGE_NUMBER_SIZE = 8;
/** Baseline of "Page X of Y" above the page's bottom edge (as the react-pdf layout's stamp). */
const FOOTER_BASELINE = 30;
/** Room a section title needs below it for its first row, or it starts on the next page. */
const SECTION_KEEP = 40;
const BOOKMARK_LEFT = 1;
/** Below this distance from the bottom margin a row is measured before it is drawn. */
const NEAR_BOTTOM = 80;
const KEEP_SLACK = 4;
const MISSING_GLYPH = '\uFFFD';
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** Words with the spaces after them as separate tokens; each ideograph or kana its own word. */
const TOKENS =
  /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]+|\s+/gu;
/** Said on the staff cover after the title of each appended document that has no tags. */
export const UNTAGGED_NOTE = 'not tagged by its author';

interface LoadedFonts {
  regular: Font;
  bold: Font;
  cjkRegular: Font;
  cjkBold: Font;
}

let loaded: LoadedFonts | undefined;

/** Parses the four faces once per process; each document embeds only the glyphs it uses. */
export function loadTaggedFonts(paths: PdfFontPaths = {}): LoadedFonts {
  if (loaded) return loaded;
  assertPdfFontFiles(paths);
  const [regular, bold, cjkRegular, cjkBold] = listFontFaces(paths).map((face) =>
    openSync(face.file, face.postscriptName),
  );
  loaded = { regular: regular!, bold: bold!, cjkRegular: cjkRegular!, cjkBold: cjkBold! };
  // The same shaping shortcuts and glyph repairs as the react-pdf faces (fast-shaping.ts).
  tuneFontStack([regular, cjkRegular] as unknown as FontkitFont[]);
  tuneFontStack([bold, cjkBold] as unknown as FontkitFont[]);
  for (const face of [regular, bold, cjkRegular, cjkBold]) measureScaledRuns(face!);
  return loaded;
}

/**
 * pdfkit scales a run's positions to its 1000-unit space in place and then reads the run's
 * advanceWidth, which fontkit computes from the positions; the shortcut runs of fast-shaping.ts
 * carry a precomputed advanceWidth in font units instead, so it is made to follow the positions.
 */
function measureScaledRuns(face: Font) {
  const layout = face.layout.bind(face);
  face.layout = (text: string, ...rest: unknown[]) => {
    const run = (layout as (text: string, ...rest: unknown[]) => unknown)(text, ...rest) as {
      positions: { xAdvance: number }[];
      advanceWidth?: number;
    };
    if (Object.prototype.hasOwnProperty.call(run, 'advanceWidth')) {
      Object.defineProperty(run, 'advanceWidth', {
        get: () => run.positions.reduce((sum, position) => sum + position.xAdvance, 0),
      });
    }
    return run;
  };
}

type Weight = 'regular' | 'bold';
interface Run {
  font: string;
  text: string;
}

/**
 * Splits text into runs by the font that has each character: DejaVu first, Noto CJK behind it. A
 * combining mark stays in its base character's run so it is shaped onto it; a character neither
 * font has becomes U+FFFD, never nothing.
 */
function splitRuns(text: string, weight: Weight, fonts: LoadedFonts): Run[] {
  const body = weight === 'bold' ? fonts.bold : fonts.regular;
  const cjk = weight === 'bold' ? fonts.cjkBold : fonts.cjkRegular;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return [{ font: weight, text }];
  const runs: Run[] = [];
  let current: Run | undefined;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    let font: string;
    let shown = char;
    if (current && /\p{M}/u.test(char)) font = current.font;
    else if (codePoint < 0x80 || char === '\n' || body.hasGlyphForCodePoint(codePoint)) {
      font = weight;
    } else if (cjk.hasGlyphForCodePoint(codePoint)) font = `cjk-${weight}`;
    else {
      font = weight;
      shown = MISSING_GLYPH;
    }
    if (current && current.font === font) current.text += shown;
    else {
      current = { font, text: shown };
      runs.push(current);
    }
  }
  return runs;
}

/** The layout state of one document: pdfkit's cursor plus the fonts. */
class TaggedLayout {
  readonly doc: PDFDocument;
  private textColor = TEXT_COLOR;

  constructor(
    readonly fonts: LoadedFonts,
    title: string,
  ) {
    this.doc = new PDFDocument({
      size: 'LETTER',
      margin: MARGIN,
      autoFirstPage: false,
      bufferPages: true,
      pdfVersion: '1.7',
      tagged: true,
      lang: 'en-US',
      displayTitle: true,
      subset: 'PDF/UA',
      info: { Title: title, Creator: '', Producer: '' },
    });
    this.doc.registerFont('regular', fonts.regular);
    this.doc.registerFont('bold', fonts.bold);
    this.doc.registerFont('cjk-regular', fonts.cjkRegular);
    this.doc.registerFont('cjk-bold', fonts.cjkBold);
  }

  /** Width of text in the current size, each run in its own font. */
  private widthOf(runs: readonly Run[]): number {
    let width = 0;
    for (const run of runs) width += this.doc.font(run.font).widthOfString(run.text);
    return width;
  }

  private lineHeight(size: number): number {
    return this.doc.font('regular').fontSize(size).currentLineHeight(true) + LINE_GAP;
  }

  /**
   * Breaks a paragraph into lines no wider than `width` (the first starts `indent` in): at spaces,
   * between ideographs, and inside a word too long for a line; never at a hyphen, so the text
   * copies out as it was typed. Lines are laid out here rather than by pdfkit's wrapper, which
   * can drop a word where a run in one font ends at a line break and the next font's run starts.
   */
  private breakLines(text: string, weight: Weight, width: number, indent: number): string[] {
    const lines: string[] = [];
    // Composed where the font has the letter ("e" + U+0302 + U+0303 as "ễ"): a base and its marks
    // drawn as separate glyphs read back with a space after the marks in some extractors.
    for (const paragraph of text.normalize('NFC').split('\n')) {
      let line = '';
      let lineWidth = indent;
      const tokens = paragraph.match(TOKENS) ?? [''];
      for (const token of tokens) {
        const tokenWidth = this.widthOf(splitRuns(token, weight, this.fonts));
        if (lineWidth + tokenWidth <= width || line.trim() === '') {
          if (tokenWidth > width - lineWidth && line.trim() === '' && !/^\s+$/.test(token)) {
            // A word longer than the line: as many characters as fit, the rest on the next lines.
            // By grapheme, so a letter is never parted from its combining marks.
            for (const { segment: char } of GRAPHEMES.segment(token)) {
              const charWidth = this.widthOf(splitRuns(char, weight, this.fonts));
              if (lineWidth + charWidth > width && line !== '') {
                lines.push(line);
                line = '';
                lineWidth = 0;
              }
              line += char;
              lineWidth += charWidth;
            }
            continue;
          }
          line += token;
          lineWidth += tokenWidth;
        } else if (/^\s+$/.test(token)) {
          // A space at the end of a line is not carried to the next one.
          lines.push(line);
          line = '';
          lineWidth = 0;
        } else {
          lines.push(line.trimEnd());
          line = token;
          lineWidth = tokenWidth;
        }
        indent = 0;
      }
      lines.push(line);
    }
    return lines;
  }

  /**
   * Draws text from the cursor, wrapping within `width` from the left margin (or `left`); each
   * run of characters in the font that has them. `continued` leaves the cursor after the text on
   * its last line, for the next run of the same line.
   */
  write(
    text: string,
    weight: Weight,
    size: number,
    options: { width?: number; left?: number; continued?: boolean } = {},
  ) {
    const doc = this.doc;
    const left = options.left ?? MARGIN;
    const width = options.width ?? TEXT_WIDTH;
    doc.fontSize(size);
    const lineHeight = this.lineHeight(size);
    const lines = this.breakLines(text, weight, width, doc.x - left);
    let x = doc.x;
    lines.forEach((line, i) => {
      if (i > 0) {
        doc.y += lineHeight;
        x = left;
      }
      if (doc.y + lineHeight > doc.page.maxY()) this.newPage();
      for (const run of splitRuns(line, weight, this.fonts)) {
        doc.font(run.font).fontSize(size);
        doc.text(run.text, x, doc.y, { lineBreak: false });
        x += doc.widthOfString(run.text);
      }
    });
    if (options.continued) {
      doc.x = x;
    } else {
      doc.x = MARGIN;
      doc.y += lineHeight;
    }
  }

  /** Height the text takes when written from the left margin. */
  heightOf(text: string, weight: Weight, size: number, width = TEXT_WIDTH): number {
    this.doc.fontSize(size);
    return this.breakLines(text, weight, width, 0).length * this.lineHeight(size);
  }

  /** Draws into a new marked-content sequence owned by `element`. */
  tag(element: PdfKitStructureElement, type: string, draw: () => void) {
    const content = this.doc.markStructureContent(type);
    draw();
    this.doc.endMarkedContent();
    element.add(content);
  }

  /** The text colour, set again on each new page (a page starts black). */
  color(color: string) {
    this.textColor = color;
    this.doc.fillColor(color);
  }

  /** A page break that keeps any open marked content open on the next page. */
  newPage() {
    this.doc.continueOnNewPage();
    this.doc.fillColor(this.textColor);
  }

  /** A new page when less than `height` is left on this one. */
  keep(height: number) {
    if (this.doc.y + height > this.doc.page.maxY()) this.newPage();
  }

  rule() {
    const y = this.doc.y;
    this.doc.markContent('Artifact', { type: 'Layout' });
    this.doc
      .lineWidth(0.75)
      .strokeColor('#8a8a8a')
      .moveTo(MARGIN, y)
      .lineTo(PAGE_WIDTH - MARGIN, y)
      .stroke();
    this.doc.endMarkedContent();
  }
}

function layOutCover(layout: TaggedLayout, root: PdfKitStructureElement, cover: ApplicationCover) {
  const { doc } = layout;
  doc.addPage();
  layout.color(TEXT_COLOR);
  doc.y = MARGIN + 120;
  if (cover.institution) {
    const institution = doc.struct('P');
    root.add(institution);
    layout.tag(institution, 'P', () => layout.write(cover.institution!, 'bold', 14));
    institution.end();
    doc.y += 8;
  }
  const heading = doc.struct('P');
  root.add(heading);
  if (!cover.institution) doc.y += 120;
  layout.tag(heading, 'P', () => layout.write(COVER_HEADING, 'bold', 22));
  heading.end();
  doc.y += 24;
  const name = doc.struct('H1');
  root.add(name);
  layout.tag(name, 'H1', () => layout.write(cover.applicantName || COVER_HEADING, 'bold', 16));
  name.end();
  doc.y += 18;
  const table = doc.struct('Table');
  root.add(table);
  for (const line of listCoverLines(cover)) {
    const row = doc.struct('TR');
    const th = doc.struct('TH', { scope: 'Row' });
    const td = doc.struct('TD');
    table.add(row);
    row.add(th).add(td);
    layout.tag(th, 'TH', () => layout.write(`${line.label}: `, 'bold', 11, { continued: true }));
    layout.tag(td, 'TD', () => layout.write(line.value, 'regular', 11));
    th.end();
    td.end();
    row.end();
    doc.y += 6;
  }
  // Staff copy: a screen-reader user learns before reaching them which documents are untagged.
  for (const title of cover.untaggedDocuments ?? []) {
    const row = doc.struct('TR');
    const th = doc.struct('TH', { scope: 'Row' });
    const td = doc.struct('TD');
    table.add(row);
    row.add(th).add(td);
    layout.tag(th, 'TH', () => layout.write(`${title}: `, 'bold', 11, { continued: true }));
    layout.tag(td, 'TD', () => layout.write(UNTAGGED_NOTE, 'regular', 11));
    th.end();
    td.end();
    row.end();
    doc.y += 6;
  }
  table.end();
}

function layOutRow(
  layout: TaggedLayout,
  table: PdfKitStructureElement,
  row: AnswerRow,
  showTab: boolean,
) {
  const { doc } = layout;
  const tab = showTab && row.tab ? `${row.tab.group}: ${row.tab.tab}` : '';
  const hasValue = row.kind !== 'check' && row.value !== '';
  // A short row stays together; a long answer flows on across pages.
  const roughLines = Math.ceil((row.label.length + row.value.length + tab.length) / 60);
  if (doc.y + NEAR_BOTTOM + roughLines * 13 > doc.page.maxY()) {
    const needed =
      layout.heightOf(row.label, 'bold', BODY_SIZE) +
      (tab ? layout.heightOf(tab, 'regular', BODY_SIZE) : 0) +
      (hasValue
        ? row.kind === 'long'
          ? 2 * doc.currentLineHeight(true)
          : layout.heightOf(row.value, 'regular', BODY_SIZE)
        : 0);
    // pdfkit breaks a page when a line would end within a few points of the margin.
    layout.keep(needed + KEEP_SLACK);
  }
  const tr = doc.struct('TR');
  const th = doc.struct('TH', { scope: 'Row' });
  const td = doc.struct('TD');
  table.add(tr);
  tr.add(th).add(td);
  let indent = 0;
  if (row.kind === 'check') {
    // "[X] I agree …": the box first on the page, as on the form, the label beside it with a
    // hanging indent (one text line, which text extraction reads as one); the box is the TD.
    const box = `${row.value} `;
    const top = doc.y;
    doc.font('regular').fontSize(BODY_SIZE);
    indent = doc.widthOfString(box);
    layout.tag(td, 'TD', () => {
      doc.text(box, MARGIN, top, { lineBreak: false });
    });
    doc.x = MARGIN + indent;
    doc.y = top;
  }
  layout.tag(th, 'TH', () => {
    layout.write(row.label, 'bold', BODY_SIZE, {
      left: MARGIN + indent,
      width: TEXT_WIDTH - indent,
    });
    doc.x = MARGIN;
    if (tab) {
      layout.color(NOTE_COLOR);
      layout.write(tab, 'regular', BODY_SIZE);
      layout.color(TEXT_COLOR);
    }
  });
  if (hasValue) layout.tag(td, 'TD', () => layout.write(row.value, 'regular', BODY_SIZE));
  th.end();
  td.end();
  tr.end();
  doc.y += ROW_GAP;
}

/** A section's heading: H2, or H3 for a block under its group's H2, a size smaller. */
type SectionLevel = { tag: 'H2'; size: 13 } | { tag: 'H3'; size: 12 };
const SECTION_LEVEL: SectionLevel = { tag: 'H2', size: 13 };
const BLOCK_LEVEL: SectionLevel = { tag: 'H3', size: 12 };

/** An add-another group: a Sect with the group's H2, then each block as a section with its H3. */
function layOutBlockGroup(
  layout: TaggedLayout,
  page: PdfKitStructureElement,
  title: string,
  sections: readonly AnswerSectionView[],
  bookmark: { addItem(title: string, options?: { left?: number; top?: number }): unknown },
) {
  const { doc } = layout;
  doc.y += 10;
  // The group's heading stays with its first block's heading and first row.
  layout.keep(
    layout.heightOf(title, 'bold', 13) +
      layout.heightOf(sections[0]!.title, 'bold', BLOCK_LEVEL.size) +
      SECTION_KEEP,
  );
  const sect = doc.struct('Sect');
  page.add(sect);
  const heading = doc.struct('H2');
  sect.add(heading);
  layout.tag(heading, 'H2', () => layout.write(title, 'bold', 13));
  heading.end();
  for (const section of sections) layOutSection(layout, sect, section, bookmark, BLOCK_LEVEL);
  sect.end();
}

function layOutSection(
  layout: TaggedLayout,
  page: PdfKitStructureElement,
  section: AnswerSectionView,
  bookmark: { addItem(title: string, options?: { left?: number; top?: number }): unknown },
  level: SectionLevel = SECTION_LEVEL,
) {
  const { doc } = layout;
  doc.y += level === SECTION_LEVEL ? 10 : 6;
  layout.keep(layout.heightOf(section.title, 'bold', level.size) + SECTION_KEEP);
  const sect = doc.struct('Sect');
  page.add(sect);
  bookmark.addItem(section.title, {
    left: PAGE_WIDTH - BOOKMARK_LEFT,
    top: doc.page.height - doc.y,
  });
  const heading = doc.struct(level.tag);
  sect.add(heading);
  layout.tag(heading, level.tag, () => layout.write(section.title, 'bold', level.size));
  heading.end();
  doc.y += 3;
  layout.rule();
  doc.y += 6;
  if (section.tab) {
    const note = doc.struct('P');
    sect.add(note);
    layout.color(NOTE_COLOR);
    layout.tag(note, 'P', () => layout.write(section.tab!, 'regular', BODY_SIZE));
    layout.color(TEXT_COLOR);
    note.end();
  }
  const table = doc.struct('Table');
  sect.add(table);
  for (const row of section.rows) layOutRow(layout, table, row, !section.tab);
  table.end();
  sect.end();
}

/** A page number for an appended document's page: a strip `width` wide, stamped onto it later. */
export interface PageNumberStrip {
  width: number;
  height: number;
  /** Baseline of the number above the strip's bottom edge. */
  baseline: number;
}

/** An appended document's title: a strip `width` wide, drawn over its first page later. */
export interface TitleStrip {
  title: string;
  width: number;
  height: number;
  /** Baseline of the title above the strip's bottom edge. */
  baseline: number;
}

/**
 * A received checklist item's section (the staff PDF's end, issue #30): laid out after the answer
 * pages, then moved by the assembly after the appended documents, its PDF's pages after it.
 */
export interface ChecklistSection {
  title: string;
  details: readonly { label: string; value: string }[];
  /** A typed letter, set as paragraphs. */
  text?: string | null;
  /** One strip per page of the item's PDF, which the assembly appends after the section. */
  strips: readonly PageNumberStrip[];
}

/** Room kept either side of a number on a strip too narrow for it at full size. */
const STRIP_SIDE_ROOM = 4;
const TITLE_SIZE = 12;
/** The title's distance from the strip's left edge (and the least room kept at its right). */
const TITLE_LEFT = 10;

/**
 * Renders the cover and the answer pages, tagged, each numbered "Page X of Y" as an artifact, then
 * each checklist section's pages (a Sect of the Document element, its H1 the item's title), then
 * one page per `strips` entry and per checklist section's strip holding only that appended page's
 * number (Y counts those pages too), then one page per `titles` entry holding only that document's
 * title (Y does not count those): the assembly draws each onto its appended page and removes it,
 * so every number and title in the file is drawn with the same embedded, Unicode-mapped fonts. A
 * title is not marked at all: the assembly draws it inside the H1 it tags it with. Numbers follow
 * the finished file's order: answers, documents, then each checklist section and its PDF's pages.
 * Returns the file, its count of cover and answer pages and each checklist section's count.
 */
export function renderTaggedAnswerPages(
  view: AnswerView,
  cover: ApplicationCover,
  strips: readonly PageNumberStrip[] = [],
  titles: readonly TitleStrip[] = [],
  checklist: readonly ChecklistSection[] = [],
  paths: PdfFontPaths = {},
): Promise<{ bytes: Uint8Array; pages: number; checklistPages: number[] }> {
  const fonts = loadTaggedFonts(paths);
  const layout = new TaggedLayout(fonts, `${COVER_HEADING}: ${cover.applicantName}`);
  const { doc } = layout;
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const root = doc.struct('Document');
  doc.addStructure(root);
  layOutCover(layout, root, cover);
  for (const page of view.pages) {
    doc.addPage();
    layout.color(TEXT_COLOR);
    const sect = doc.struct('Sect');
    root.add(sect);
    const bookmark = doc.outline.addItem(page.title, {
      left: PAGE_WIDTH - BOOKMARK_LEFT,
      top: doc.page.height - doc.y,
    });
    const heading = doc.struct('H1');
    sect.add(heading);
    layout.tag(heading, 'H1', () => layout.write(page.title, 'bold', 18));
    heading.end();
    for (const group of listSectionGroups(page.sections)) {
      if (group.kind === 'section') layOutSection(layout, sect, group.section, bookmark);
      else layOutBlockGroup(layout, sect, group.title, group.sections, bookmark);
    }
    sect.end();
  }
  const answerPages = doc.bufferedPageRange().count;
  const checklistPages = checklist.map((item) => {
    const before = doc.bufferedPageRange().count;
    layOutChecklistSection(layout, root, item);
    return doc.bufferedPageRange().count - before;
  });
  root.end();

  // Each page's number in the finished file: the answers, the documents' pages, then each
  // checklist section followed by its PDF's pages.
  const pageNumbers: number[] = [];
  const stripNumbers: number[] = [];
  let count = 0;
  for (let i = 0; i < answerPages; i++) pageNumbers.push(++count);
  for (let i = 0; i < strips.length; i++) stripNumbers.push(++count);
  checklist.forEach((item, k) => {
    for (let i = 0; i < checklistPages[k]!; i++) pageNumbers.push(++count);
    for (let i = 0; i < item.strips.length; i++) stripNumbers.push(++count);
  });
  const total = count;
  const range = doc.bufferedPageRange();
  const ascent = fonts.regular.ascent / fonts.regular.unitsPerEm;
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    drawPageNumber(doc, `Page ${pageNumbers[i]} of ${total}`, PAGE_NUMBER_SIZE, {
      x: MARGIN,
      width: TEXT_WIDTH,
      top: doc.page.height - FOOTER_BASELINE - ascent * PAGE_NUMBER_SIZE,
    });
  }
  [...strips, ...checklist.flatMap((item) => item.strips)].forEach((strip, i) => {
    doc.addPage({ size: [strip.width, strip.height], margin: 0 });
    const text = `Page ${stripNumbers[i]} of ${total}`;
    doc.font('regular');
    const size = Math.min(
      PAGE_NUMBER_SIZE,
      (strip.width - 2 * STRIP_SIDE_ROOM) / (doc.fontSize(1).widthOfString(text) || 1),
    );
    if (!(size > 0)) return;
    drawPageNumber(doc, text, size, {
      x: 0,
      width: strip.width,
      top: strip.height - strip.baseline - ascent * size,
    });
  });
  for (const strip of titles) {
    doc.addPage({ size: [strip.width, strip.height], margin: 0 });
    drawTitle(layout, strip);
  }
  doc.end();
  // The cover and answer pages, then the checklist sections': the strips after them are the
  // assembly's to remove.
  return done.then((bytes) => ({ bytes, pages: answerPages, checklistPages }));
}

/**
 * One received checklist item on pages of its own: a Sect titled with the item, its H1, the
 * details as a table of TH and TD rows (as an answer section's), then a typed letter as
 * paragraphs. Its bookmark is the assembly's, which knows where the section ends up.
 */
function layOutChecklistSection(
  layout: TaggedLayout,
  root: PdfKitStructureElement,
  item: ChecklistSection,
) {
  const { doc } = layout;
  doc.addPage();
  layout.color(TEXT_COLOR);
  const sect = doc.struct('Sect', { title: item.title });
  root.add(sect);
  const heading = doc.struct('H1');
  sect.add(heading);
  layout.tag(heading, 'H1', () => layout.write(item.title, 'bold', 18));
  heading.end();
  doc.y += 3;
  layout.rule();
  doc.y += 6;
  if (item.details.length > 0) {
    const table = doc.struct('Table');
    sect.add(table);
    for (const { label, value } of item.details) {
      layOutRow(layout, table, { key: '', label, value, kind: 'short' }, false);
    }
    table.end();
  }
  const text = item.text?.trim();
  if (text) {
    doc.y += 10;
    layout.rule();
    doc.y += 10;
    // A blank line parts paragraphs; a single line break stays a line break within one.
    for (const paragraph of text.split(/\n\s*\n/)) {
      const p = doc.struct('P');
      sect.add(p);
      layout.tag(p, 'P', () => layout.write(paragraph.trim(), 'regular', BODY_SIZE));
      p.end();
      doc.y += ROW_GAP * 2;
    }
  }
  sect.end();
}

/** A title on one line, each run in the font that has it, smaller when the strip is too narrow. */
function drawTitle(layout: TaggedLayout, strip: TitleStrip) {
  const { doc, fonts } = layout;
  const runs = splitRuns(strip.title.normalize('NFC').replace(/\s+/g, ' ').trim(), 'bold', fonts);
  let width = 0;
  for (const run of runs) width += doc.font(run.font).fontSize(1).widthOfString(run.text);
  const size = Math.min(TITLE_SIZE, (strip.width - 2 * TITLE_LEFT) / (width || 1));
  if (!(size > 0)) return;
  doc.fillColor(TEXT_COLOR);
  let x = TITLE_LEFT;
  for (const run of runs) {
    // pdfkit places text by its top: each font's own ascent puts every run on one baseline.
    const face = run.font === 'bold' ? fonts.bold : fonts.cjkBold;
    const top = strip.height - strip.baseline - (face.ascent / face.unitsPerEm) * size;
    doc.font(run.font).fontSize(size);
    doc.text(run.text, x, top, { lineBreak: false });
    x += doc.widthOfString(run.text);
  }
}

function drawPageNumber(
  doc: PDFDocument,
  text: string,
  size: number,
  at: { x: number; width: number; top: number },
) {
  // A footer below the bottom margin would otherwise start a new page.
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.markContent('Artifact', { type: 'Pagination' });
  doc.font('regular').fontSize(size).fillColor('#000000');
  doc.text(text, at.x, at.top, { width: at.width, align: 'center', lineBreak: false });
  doc.endMarkedContent();
  doc.page.margins.bottom = bottom;
}
