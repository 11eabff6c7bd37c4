// The production renderer: @admissions/answer-view/pdf, loaded on first use so that processes
// that never make a PDF (the CLI's other commands) do not load react-pdf and its fonts.
import type * as PdfModule from '@admissions/answer-view/pdf';
import type { PdfRenderer } from './render-application';

let loading: Promise<typeof PdfModule> | undefined;
function loadPdfModule(): Promise<typeof PdfModule> {
  loading ??= import('@admissions/answer-view/pdf');
  return loading;
}

export const renderApplicationPdf: PdfRenderer = async (view, cover, documents) =>
  (await loadPdfModule()).renderApplicationPdf(view, cover, documents);

/** Loads fonts and renders once, so the first applicant does not wait for a cold start. */
export async function warmPdfRenderer(): Promise<void> {
  await (await loadPdfModule()).warmPdfRenderer();
}
