// The cover and answer pages as a tagged PDF (PDF/UA-1), laid out with pdfkit from the view model.
// pdfkit writes the structure tree, the parent tree and the marked content as the text is drawn,
// embeds subsets of the fonts with ToUnicode maps, and its layout of plain lines of text is cheap:
// nothing is measured twice, there is no box tree. The structure follows the print view:
// Document > cover (P, H1 name, a table of the cover's facts) > per page a Sect with its H1 and,
// per section, a Sect with its H2 and a Table whose rows are TH (question) and TD (answer).
// Page numbers and rules are artifacts. A row's visual order stays as on the form ("[X] label"),
// its structure order is always TH then TD.
import PDFDocument, { type PdfKitStructureElement, type PdfKitTextOptions } from 'pdfkit';
import { openSync, type Font } from 'fontkit';
import { COVER_HEADING, listCoverLines } from '../../cover';
import type { AnswerRow, AnswerSectionView, AnswerView, ApplicationCover } from '../../view-model';
import { tuneFontStack, type FontkitFont } from '../fast-shaping';
import { assertPdfFontFiles, listFontFaces, type PdfFontPaths } from '../fonts';

const PAGE_WIDTH = 612;
const MARGIN = 54;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BODY_SIZE = 10;
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
const MISSING_GLYPH = '\uFFFD';
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
  return loaded;
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

  /** Draws text in runs of the font that has each character, wrapping as one paragraph. */
  write(text: string, weight: Weight, size: number, options: PdfKitTextOptions = {}) {
    const runs = splitRuns(text === '' ? ' ' : text, weight, this.fonts);
    this.doc.fontSize(size);
    runs.forEach((run, i) => {
      this.doc.font(run.font).text(run.text, {
        width: TEXT_WIDTH,
        lineGap: LINE_GAP,
        ...options,
        continued: i < runs.length - 1 || options.continued === true,
      });
    });
  }

  /** Draws into a new marked-content sequence owned by `element`. */
  tag(element: PdfKitStructureElement, type: string, draw: () => void) {
    const content = this.doc.markStructureContent(type);
    draw();
    this.doc.endMarkedContent();
    element.add(content);
  }

  /** A new page when less than `height` is left on this one. */
  keep(height: number) {
    if (this.doc.y + height > this.doc.page.maxY()) this.doc.addPage();
  }

  heightOf(text: string, weight: Weight, size: number): number {
    this.doc.font(weight).fontSize(size);
    return this.doc.heightOfString(text === '' ? ' ' : text, {
      width: TEXT_WIDTH,
      lineGap: LINE_GAP,
    });
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
  doc.fillColor('#1a1a1a');
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
    layout.keep(needed);
  }
  const tr = doc.struct('TR');
  const th = doc.struct('TH', { scope: 'Row' });
  const td = doc.struct('TD');
  table.add(tr);
  tr.add(th).add(td);
  if (row.kind === 'check') {
    // "[X] I agree …": the box first on the page, as on the form; the answer cell in the tree.
    layout.tag(td, 'TD', () =>
      layout.write(`${row.value} `, 'regular', BODY_SIZE, { continued: true }),
    );
  }
  layout.tag(th, 'TH', () => {
    layout.write(row.label, 'bold', BODY_SIZE);
    if (tab) {
      doc.fillColor('#555555');
      layout.write(tab, 'regular', BODY_SIZE);
      doc.fillColor('#1a1a1a');
    }
  });
  if (hasValue) layout.tag(td, 'TD', () => layout.write(row.value, 'regular', BODY_SIZE));
  th.end();
  td.end();
  tr.end();
  doc.y += ROW_GAP;
}

function layOutSection(
  layout: TaggedLayout,
  page: PdfKitStructureElement,
  section: AnswerSectionView,
  bookmark: { addItem(title: string, options?: { left?: number; top?: number }): unknown },
) {
  const { doc } = layout;
  doc.y += 10;
  layout.keep(layout.heightOf(section.title, 'bold', 13) + SECTION_KEEP);
  const sect = doc.struct('Sect');
  page.add(sect);
  bookmark.addItem(section.title, {
    left: PAGE_WIDTH - BOOKMARK_LEFT,
    top: doc.page.height - doc.y,
  });
  const heading = doc.struct('H2');
  sect.add(heading);
  layout.tag(heading, 'H2', () => layout.write(section.title, 'bold', 13));
  heading.end();
  doc.y += 3;
  layout.rule();
  doc.y += 6;
  if (section.tab) {
    const note = doc.struct('P');
    sect.add(note);
    doc.fillColor('#555555');
    layout.tag(note, 'P', () => layout.write(section.tab!, 'regular', BODY_SIZE));
    doc.fillColor('#1a1a1a');
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

/** Room kept either side of a number on a strip too narrow for it at full size. */
const STRIP_SIDE_ROOM = 4;

/**
 * Renders the cover and the answer pages, tagged, each numbered "Page X of Y" as an artifact, then
 * one page per `strips` entry holding only that document page's number (Y counts those pages too):
 * the assembly draws each onto its document page and removes it, so every number in the file is
 * drawn with the same embedded, Unicode-mapped font.
 */
export function renderTaggedAnswerPages(
  view: AnswerView,
  cover: ApplicationCover,
  strips: readonly PageNumberStrip[] = [],
  paths: PdfFontPaths = {},
): Promise<Uint8Array> {
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
    for (const section of page.sections) layOutSection(layout, sect, section, bookmark);
    sect.end();
  }
  root.end();

  const range = doc.bufferedPageRange();
  const total = range.count + strips.length;
  const ascent = fonts.regular.ascent / fonts.regular.unitsPerEm;
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    drawPageNumber(doc, `Page ${i + 1} of ${total}`, PAGE_NUMBER_SIZE, {
      x: MARGIN,
      width: TEXT_WIDTH,
      top: doc.page.height - FOOTER_BASELINE - ascent * PAGE_NUMBER_SIZE,
    });
  }
  strips.forEach((strip, i) => {
    doc.addPage({ size: [strip.width, strip.height], margin: 0 });
    const text = `Page ${range.count + i + 1} of ${total}`;
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
  doc.end();
  return done;
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
