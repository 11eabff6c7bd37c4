// Parses the fonts and renders a small tagged application once, so the first real request does not
// pay for font parsing and JIT warm-up. Call at server (or sandbox child) start.
import type { PdfFontPaths } from '../fonts';
import { renderTaggedApplicationPdf } from './assemble-tagged';
import { loadTaggedFonts } from './tagged-answer-pages';
import { WARM_UP_COVER, WARM_UP_VIEW } from '../warm-up-sample';

export async function warmTaggedPdfRenderer(paths: PdfFontPaths = {}): Promise<void> {
  loadTaggedFonts(paths);
  await renderTaggedApplicationPdf(WARM_UP_VIEW, WARM_UP_COVER, [], [], { fontPaths: paths });
}
