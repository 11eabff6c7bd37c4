// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- pdfkit and fontkit ship no types: the declarations go wherever this file is compiled
/// <reference path="./pdfkit-modules.d.ts" />
// Sentences written in small type across the top of a converted document's first page (what the
// conversion left out of a Word file), without breaking the document's tagging: the text is set
// by pdfkit in an embedded, Unicode-mapped font, drawn onto the page as a form, and — when the
// document is tagged — enclosed in a marked-content sequence owned by a new P element, the first
// child of the document's top element, so a screen reader reads the notes before the document.
// In an untagged document the notes are drawn as they were, untagged like the rest of it.
import PDFDocument from 'pdfkit';
import { openSync, type Font } from 'fontkit';
import {
  PDFArray,
  PDFDict,
  PDFDocument as PdfLibDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';
import { assertPdfFontFiles, listFontFaces, type PdfFontPaths } from '../fonts';

const LEFT = 36;
/** Baseline of the first note below the page's top edge, and the distance between baselines. */
const FIRST_BASELINE = 16;
const LINE_STEP = 9;
const SIZE = 7;
const COLOR = '#4d4d4d';

let bodyFont: Font | undefined;

function loadBodyFont(paths: PdfFontPaths): Font {
  if (bodyFont) return bodyFont;
  assertPdfFontFiles(paths);
  const regular = listFontFaces(paths)[0]!;
  bodyFont = openSync(regular.file, regular.postscriptName);
  return bodyFont;
}

/** The notes alone on a strip `width` wide: the first note's baseline FIRST_BASELINE from its top. */
function renderNotesStrip(notes: readonly string[], width: number, paths: PdfFontPaths) {
  const font = loadBodyFont(paths);
  const height = FIRST_BASELINE + (notes.length - 1) * LINE_STEP + SIZE;
  const doc = new PDFDocument({ size: [width, height], margin: 0, autoFirstPage: true });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('notes', font).font('notes').fontSize(SIZE).fillColor(COLOR);
  const ascent = (font.ascent / font.unitsPerEm) * SIZE;
  notes.forEach((note, i) => {
    doc.text(note, LEFT, FIRST_BASELINE + i * LINE_STEP - ascent, { lineBreak: false });
  });
  doc.end();
  return { bytes: done, height };
}

/** The top element of the structure tree (usually Document), or undefined without one. */
function findTopElement(pdf: PdfLibDocument): PDFDict | undefined {
  const root = pdf.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const kids = root?.get(PDFName.of('K'));
  const first = kids instanceof PDFArray ? kids.get(0) : kids;
  const element = first instanceof PDFRef ? pdf.context.lookup(first) : first;
  return element instanceof PDFDict ? element : undefined;
}

/** The parent tree's array for a page's StructParents key (its MCIDs' owners), if there is one. */
export function findPageParents(pdf: PdfLibDocument, key: number): PDFArray | undefined {
  const root = pdf.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const search = (node: PDFDict | undefined): PDFArray | undefined => {
    if (!node) return undefined;
    const nums = node.lookupMaybe(PDFName.of('Nums'), PDFArray);
    for (let i = 0; nums && i + 1 < nums.size(); i += 2) {
      const at = nums.lookup(i);
      if (at instanceof PDFNumber && at.asNumber() === key) {
        const value = nums.lookup(i + 1);
        return value instanceof PDFArray ? value : undefined;
      }
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) {
      const found = search(kids.lookupMaybe(i, PDFDict));
      if (found) return found;
    }
    return undefined;
  };
  return search(root?.lookupMaybe(PDFName.of('ParentTree'), PDFDict));
}

/** Puts `child` first among `parent`'s kids, whatever form its /K has. */
export function prependKid(parent: PDFDict, child: PDFRef) {
  const kids = parent.get(PDFName.of('K'));
  const resolved = kids instanceof PDFRef ? parent.context.lookup(kids) : kids;
  if (resolved instanceof PDFArray) {
    resolved.insert(0, child);
    return;
  }
  const list: PDFObject[] = [child];
  if (kids) list.push(kids);
  parent.set(PDFName.of('K'), parent.context.obj(list));
}

/**
 * `pdf` with `notes` written across the top margin of its first page; its pages, and so its page
 * count, unchanged. Pure: the documents module's sandbox runs it on an applicant's file.
 */
export async function stampNotes(
  pdf: Uint8Array,
  notes: readonly string[],
  fontPaths: PdfFontPaths = {},
): Promise<Uint8Array> {
  if (notes.length === 0) return pdf;
  const doc = await PdfLibDocument.load(pdf, { updateMetadata: false });
  const page = doc.getPage(0);
  const { width, height } = page.getSize();
  const strip = renderNotesStrip(notes, width, fontPaths);
  const [form] = await doc.embedPdf(await strip.bytes);
  const at = { x: 0, y: height - strip.height };

  const key = page.node.lookupMaybe(PDFName.of('StructParents'), PDFNumber)?.asNumber();
  const top = findTopElement(doc);
  const parents = key === undefined ? undefined : findPageParents(doc, key);
  if (!top || !parents) {
    page.drawPage(form!, at);
    return doc.save({ useObjectStreams: false, addDefaultPage: false });
  }
  const mcid = parents.size();
  const paragraph = doc.context.register(
    doc.context.obj({
      Type: 'StructElem',
      S: 'P',
      P: doc.context.getObjectRef(top) ?? top,
      Pg: page.ref,
      K: mcid,
    }),
  );
  parents.push(paragraph);
  prependKid(top, paragraph);
  page.pushOperators(
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
      PDFName.of('P'),
      // An inline property list: pdf-lib's operator argument type leaves dictionaries out, but
      // it writes any argument by its toString, which for a dictionary is `<< /MCID n >>`.
      doc.context.obj({ MCID: mcid }) as unknown as PDFName,
    ]),
  );
  page.drawPage(form!, at);
  page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}
