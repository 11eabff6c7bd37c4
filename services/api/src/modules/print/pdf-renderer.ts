// The production renderer: @admissions/answer-view/pdf, loaded on first use so that processes
// that never make a PDF (the CLI's other commands) do not load react-pdf and its fonts. It lays
// out applicants' documents, so the service calls it only inside sandbox children
// (createSandboxedRenderers); renderApplicationPdf itself is what those children run.
import type * as PdfModule from '@admissions/answer-view/pdf';
import type { SandboxPool } from '../../platform/sandbox/sandbox-pool';
import type { AnswerView, ApplicationCover } from '@admissions/answer-view';
import type {
  PageCountingRenderer,
  PdfChecklistItemInput,
  PdfDocumentInput,
  PdfRenderer,
} from './render-application';

export interface RenderApplicationInput {
  view: AnswerView;
  cover: ApplicationCover;
  documents: PdfDocumentInput[];
  /** The staff copy's received checklist items (their PDFs parsed here too, in the child). */
  checklist: PdfChecklistItemInput[];
}

export interface RenderApplicationResult {
  bytes: Uint8Array;
  /** The renderer knows it; the export's index lists it. */
  pages: number;
}

let loading: Promise<typeof PdfModule> | undefined;
function loadPdfModule(): Promise<typeof PdfModule> {
  loading ??= import('@admissions/answer-view/pdf');
  return loading;
}

// The tagged (PDF/UA) renderer, laid out with pdfkit (issue #32); the react-pdf one stays in the
// package for the benchmark's comparison.
export const renderApplicationPdf: PdfRenderer = async (view, cover, documents, checklist) =>
  (await loadPdfModule()).renderTaggedApplicationPdf(view, cover, documents, checklist);

/** The same, with the page count the renderer knows (the export's index lists it). */
export async function renderCountedApplicationPdf(
  ...args: Parameters<PdfRenderer>
): Promise<{ bytes: Uint8Array; pages: number }> {
  return (await loadPdfModule()).renderCountedTaggedApplicationPdf(...args);
}

/** Loads fonts and renders once, so the first applicant does not wait for a cold start. */
export async function warmPdfRenderer(): Promise<void> {
  await (await loadPdfModule()).warmTaggedPdfRenderer();
}

/** The renderers the service uses: each layout runs in a sandbox child, never on this thread. */
export interface SandboxedRenderers {
  render: PdfRenderer;
  /** The same, also answering the page count (the export's index), known to the renderer. */
  layout: PageCountingRenderer;
  /** Loads fonts in a child and renders once, so the first applicant does not wait. */
  warm(): Promise<void>;
}

export function createSandboxedRenderers(sandbox: SandboxPool): SandboxedRenderers {
  const run = async (input: RenderApplicationInput) =>
    sandbox.run<RenderApplicationResult>('render-application', input);
  return {
    render: async (view, cover, documents, checklist) =>
      (await run({ view, cover, documents, checklist })).bytes,
    layout: (view, cover, documents, checklist) => run({ view, cover, documents, checklist }),
    async warm() {
      await sandbox.run<null>('warm-pdf-renderer', null);
    },
  };
}
