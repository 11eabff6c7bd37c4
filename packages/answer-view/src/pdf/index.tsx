/** @jsxRuntime automatic @jsxImportSource react */
// `@admissions/answer-view/pdf`: the whole application PDF — cover, the answers, every converted
// document appended — from the view model. Node only (fonts are read from Debian's font packages).
import { pdf } from '@react-pdf/renderer';
import type { AnswerView, ApplicationCover, PdfDocumentInput } from '../view-model';
import { ApplicationDocument } from './application-document';
import { loadPdfFonts, type PdfFontPaths } from './fonts';
import { assembleApplicationPdf } from './assemble';
import { WARM_UP_COVER, WARM_UP_VIEW } from './warm-up-sample';

export type { PdfDocumentInput } from '../view-model';
export { assertPdfFontFiles, type PdfFontPaths } from './fonts';
export {
  renderCountedTaggedApplicationPdf,
  renderTaggedApplicationPdf,
} from './tagged/assemble-tagged';
export { warmTaggedPdfRenderer } from './tagged/warm-tagged';

/** Lays out the cover and the answer pages with react-pdf (bookmarks per page and section). */
export async function renderAnswerPages(
  view: AnswerView,
  cover: ApplicationCover,
): Promise<Uint8Array> {
  await loadPdfFonts();
  const instance = pdf(<ApplicationDocument view={view} cover={cover} />);
  try {
    const stream = await instance.toBuffer();
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as AsyncIterable<Uint8Array>) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    // react-pdf keeps the rendered tree in its container until it is unmounted (~2.7 MB a render).
    instance.updateContainer(null as never);
  }
}

/**
 * The application PDF: a cover page, the three pages of answers, then each converted document with
 * its own bookmark; "Page X of Y" on every page.
 */
export async function renderApplicationPdf(
  view: AnswerView,
  cover: ApplicationCover,
  documents: readonly PdfDocumentInput[] = [],
): Promise<Uint8Array> {
  const answers = await renderAnswerPages(view, cover);
  return assembleApplicationPdf(answers, documents);
}

/**
 * Loads the fonts and renders a small application once, so the first real request does not pay
 * for font parsing and JIT warm-up. Call at server start.
 */
export async function warmPdfRenderer(paths: PdfFontPaths = {}): Promise<void> {
  await loadPdfFonts(paths);
  await renderApplicationPdf(WARM_UP_VIEW, WARM_UP_COVER);
}
