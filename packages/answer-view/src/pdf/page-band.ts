// The band an uploaded document's page grows for its page number: such a page has no margin we can
// trust (a short or wide page is full to its edges), so a blank band is added along the edge shown
// at the bottom, whatever the page's /Rotate. Both assemblers (tagged and react-pdf) use it. The
// tagged assembly grows a second band along the edge shown at the top of a document's first page,
// for the document's title, for the same reason.
import type { PDFPage } from 'pdf-lib';

/** Height of the band added under a document's page, and the page number's baseline in it. */
export const DOCUMENT_BAND = 24;
export const DOCUMENT_BAND_BASELINE = 9;

/** Height of the band added over a document's first page, and the title's baseline in it. */
export const TITLE_BAND = 28;
export const TITLE_BAND_BASELINE = 10;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Degrees a page is turned when displayed, 0, 90, 180 or 270. */
export function rotationOf(page: PDFPage): number {
  return (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
}

/**
 * Grows the page's media and crop boxes by DOCUMENT_BAND along the edge shown at the bottom;
 * returns the band (to paint white: anything drawn there was outside the page as shown), the
 * grown box and the page's rotation.
 */
export function growBottomBand(page: PDFPage): { band: Box; box: Box; rotation: number } {
  return growBand(page, DOCUMENT_BAND, 0);
}

/**
 * Grows the page's media and crop boxes by TITLE_BAND along the edge shown at the top (the mirror
 * of growBottomBand); returns the band, the grown box and the page's rotation.
 */
export function growTopBand(page: PDFPage): { band: Box; box: Box; rotation: number } {
  return growBand(page, TITLE_BAND, 180);
}

/**
 * Grows the boxes by `size` along the edge shown at the bottom (`turn` 0) or the top (180): the
 * page's /Rotate decides which of its own edges that is.
 */
function growBand(
  page: PDFPage,
  size: number,
  turn: 0 | 180,
): { band: Box; box: Box; rotation: number } {
  let { x, y, width, height } = page.getCropBox();
  const rotation = rotationOf(page);
  let band: Box;
  // The page's own edge that is shown there: 0 bottom, 90 right, 180 top, 270 left.
  const edge = (rotation + turn) % 360;
  if (edge === 90) {
    band = { x: x + width, y, width: size, height };
    width += size;
  } else if (edge === 180) {
    band = { x, y: y + height, width, height: size };
    height += size;
  } else if (edge === 270) {
    x -= size;
    band = { x, y, width: size, height };
    width += size;
  } else {
    y -= size;
    band = { x, y, width, height: size };
    height += size;
  }
  page.setMediaBox(x, y, width, height);
  page.setCropBox(x, y, width, height);
  return { band, box: { x, y, width, height }, rotation };
}

/**
 * Where a strip as tall as a band goes so that it fills the band upright as the page is shown: the
 * band's corner at the displayed bottom left, to draw the strip from turned by `rotation`.
 */
export function placeStrip(band: Box, rotation: number): { x: number; y: number } {
  const { x, y, width, height } = band;
  if (rotation === 90) return { x: x + width, y };
  if (rotation === 180) return { x: x + width, y: y + height };
  if (rotation === 270) return { x, y: y + height };
  return { x, y };
}
