// After react-pdf: append the converted documents, give each its bookmark, and stamp "Page X of Y"
// on every page (a react-pdf `render` prop for page numbers costs far more than stamping them here,
// BENCHMARKS.md; stamping also numbers the appended documents' pages).
// An uploaded document's page has no margin we can trust (a short or wide page is full to its
// edges), so each one grows a blank footer band below what it shows and its number goes there.
import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { PdfDocumentInput } from '../view-model';
import { appendOutline, type OutlineNode } from './outline';
import { DOCUMENT_BAND_BASELINE, growBottomBand, rotationOf } from './page-band';

const PAGE_NUMBER_SIZE = 8;
/** Baseline of the page number above the bottom edge, inside the pages' 54 pt bottom margin. */
const FOOTER_BASELINE = 30;
/** Space kept either side of a page number on a page too narrow for it at full size. */
const PAGE_NUMBER_SIDE_ROOM = 4;

export async function assembleApplicationPdf(
  answers: Uint8Array,
  documents: readonly PdfDocumentInput[],
): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(answers, { updateMetadata: false });
  const answerPages = pdf.getPageCount();

  const bookmarks: OutlineNode[] = [];
  for (const document of documents) {
    const source = await PDFDocument.load(document.bytes, { updateMetadata: false });
    const pages = await pdf.copyPages(source, source.getPageIndices());
    if (pages.length === 0) continue;
    for (const page of pages) pdf.addPage(page);
    bookmarks.push({ title: document.title, dest: { page: pages[0]!.ref } });
  }
  // After react-pdf's own bookmarks (one per page, its sections beneath).
  appendOutline(pdf, bookmarks);
  await stampPageNumbers(pdf, answerPages);
  return pdf.save({ useObjectStreams: false, addDefaultPage: false });
}

async function stampPageNumbers(pdf: PDFDocument, answerPages: number) {
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = pdf.getPages();
  pages.forEach((page, index) => {
    const text = `Page ${index + 1} of ${pages.length}`;
    const baseline = index < answerPages ? FOOTER_BASELINE : addFooterBand(page);
    drawFooter(page, text, font, baseline);
  });
}

/**
 * Grows the visible box of a document's page by a band along the edge shown at the bottom and
 * paints the band white (anything drawn there was outside the page as shown before); returns the
 * page number's baseline, measured from that edge.
 */
function addFooterBand(page: PDFPage): number {
  const { band } = growBottomBand(page);
  page.drawRectangle({ ...band, color: rgb(1, 1, 1), borderWidth: 0 });
  return DOCUMENT_BAND_BASELINE;
}

/** Centred at the bottom of the page as it is displayed, whatever the page's /Rotate. */
function drawFooter(page: PDFPage, text: string, font: PDFFont, baseline: number) {
  const box = page.getCropBox();
  const rotation = rotationOf(page);
  const across = rotation === 90 || rotation === 270 ? box.height : box.width;
  // A page narrower than the number gets a smaller number rather than one cut off.
  const size = Math.min(
    PAGE_NUMBER_SIZE,
    (across - 2 * PAGE_NUMBER_SIDE_ROOM) / font.widthOfTextAtSize(text, 1),
  );
  if (!(size > 0)) return;
  const width = font.widthOfTextAtSize(text, size);
  const at = (x: number, y: number, angle: number) =>
    page.drawText(text, { x: box.x + x, y: box.y + y, size, font, rotate: degrees(angle) });
  if (rotation === 90) at(box.width - baseline, box.height / 2 - width / 2, 90);
  else if (rotation === 180) at(box.width / 2 + width / 2, box.height - baseline, 180);
  else if (rotation === 270) at(baseline, box.height / 2 + width / 2, 270);
  else at(box.width / 2 - width / 2, baseline, 0);
}
