// After react-pdf: append the converted documents, give each its bookmark, and stamp "Page X of Y"
// on every page (GUIDE.md §6: a react-pdf `render` prop for page numbers costs ~40 % of a render,
// stamping them here costs a few milliseconds and also numbers the appended documents' pages).
import {
  degrees,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRef,
  StandardFonts,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';

/** A converted document (a PDF) to append after the answers, under its own bookmark. */
export interface PdfDocumentInput {
  title: string;
  bytes: Uint8Array;
}

const PAGE_NUMBER_SIZE = 8;
/** Baseline of the page number above the bottom edge, inside the pages' 54 pt bottom margin. */
const FOOTER_BASELINE = 30;

export async function assembleApplicationPdf(
  answers: Uint8Array,
  documents: readonly PdfDocumentInput[],
): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(answers, { updateMetadata: false });

  const bookmarks: { title: string; page: PDFRef }[] = [];
  for (const document of documents) {
    const source = await PDFDocument.load(document.bytes, { updateMetadata: false });
    const pages = await pdf.copyPages(source, source.getPageIndices());
    if (pages.length === 0) continue;
    for (const page of pages) pdf.addPage(page);
    bookmarks.push({ title: document.title, page: pages[0]!.ref });
  }
  appendOutlineEntries(pdf, bookmarks);
  await stampPageNumbers(pdf);
  return pdf.save({ useObjectStreams: false, addDefaultPage: false });
}

/**
 * Adds top-level entries after react-pdf's own outline (one per page, sections nested under
 * them). pdf-lib has no outline API, so this edits the /Outlines dictionary directly
 * (PDF 32000-1 §12.3.3): items are a doubly linked list under their parent, and the parent's
 * /Count is the number of visible descendants.
 */
function appendOutlineEntries(
  pdf: PDFDocument,
  entries: readonly { title: string; page: PDFRef }[],
) {
  if (entries.length === 0) return;
  const { context, catalog } = pdf;
  let outlinesRef = catalog.get(PDFName.of('Outlines'));
  if (!(outlinesRef instanceof PDFRef)) {
    outlinesRef = context.register(context.obj({ Type: 'Outlines', Count: 0 }));
    catalog.set(PDFName.of('Outlines'), outlinesRef);
  }
  const outlines = context.lookup(outlinesRef, PDFDict);
  let lastRef = outlines.get(PDFName.of('Last'));
  for (const entry of entries) {
    const itemRef = context.nextRef();
    const item = context.obj({
      Title: PDFHexString.fromText(entry.title),
      Parent: outlinesRef,
      Dest: [entry.page, 'XYZ', PDFNull, PDFNull, PDFNull],
    });
    if (lastRef instanceof PDFRef) {
      item.set(PDFName.of('Prev'), lastRef);
      context.lookup(lastRef, PDFDict).set(PDFName.of('Next'), itemRef);
    } else {
      outlines.set(PDFName.of('First'), itemRef);
    }
    context.assign(itemRef, item);
    lastRef = itemRef;
  }
  outlines.set(PDFName.of('Last'), lastRef!);
  const count = outlines.get(PDFName.of('Count'));
  const visible = count instanceof PDFNumber ? Math.abs(count.asNumber()) : 0;
  outlines.set(PDFName.of('Count'), PDFNumber.of(visible + entries.length));
}

async function stampPageNumbers(pdf: PDFDocument) {
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = pdf.getPages();
  pages.forEach((page, index) => {
    const text = `Page ${index + 1} of ${pages.length}`;
    drawFooter(page, text, font.widthOfTextAtSize(text, PAGE_NUMBER_SIZE), font);
  });
}

/** Centred at the bottom of the page as it is displayed, whatever the page's /Rotate. */
function drawFooter(page: PDFPage, text: string, width: number, font: PDFFont) {
  const box = page.getMediaBox();
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  const at = (x: number, y: number, angle: number) =>
    page.drawText(text, {
      x: box.x + x,
      y: box.y + y,
      size: PAGE_NUMBER_SIZE,
      font,
      rotate: degrees(angle),
    });
  if (rotation === 90) at(box.width - FOOTER_BASELINE, box.height / 2 - width / 2, 90);
  else if (rotation === 180) at(box.width / 2 + width / 2, box.height - FOOTER_BASELINE, 180);
  else if (rotation === 270) at(FOOTER_BASELINE, box.height / 2 + width / 2, 270);
  else at(box.width / 2 - width / 2, FOOTER_BASELINE, 0);
}
