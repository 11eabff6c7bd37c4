// The production renderer: @admissions/answer-view/pdf, loaded on first use so that processes
// that never make a PDF (the CLI's other commands) do not load react-pdf and its fonts.
import type { PdfRenderer } from './render-application';

// A variable specifier: the module is resolved at run time only.
const PDF_MODULE = '@admissions/answer-view/pdf';

interface PdfModule {
  renderApplicationPdf: PdfRenderer;
  warmPdfRenderer?: () => Promise<void>;
}

let loading: Promise<PdfModule> | undefined;
function loadPdfModule(): Promise<PdfModule> {
  loading ??= import(PDF_MODULE) as Promise<PdfModule>;
  return loading;
}

export const renderApplicationPdf: PdfRenderer = async (view, cover, documents) =>
  (await loadPdfModule()).renderApplicationPdf(view, cover, documents);

/** Loads fonts and renders once, so the first applicant does not wait for a cold start. */
export async function warmPdfRenderer(): Promise<void> {
  await (await loadPdfModule()).warmPdfRenderer?.();
}
