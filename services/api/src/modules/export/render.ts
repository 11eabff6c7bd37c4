// The one seam between the export and the PDF: `renderApplication` of src/print (the function
// behind GET /service/pdf), so an exported file is exactly the staff PDF. The layout step it
// calls (view model → bytes) is injected: in-process it runs on a pool of threads, in a worker
// process on the main thread.
import {
  renderApplication,
  type PageCountingRenderer,
  type PdfRenderer,
  type RenderDeps,
} from '../print';

/** The staff PDF of one application and what the index says about it. */
export interface RenderedExport {
  bytes: Uint8Array;
  /** applications.version of the content it shows. */
  version: number;
  pages: number;
  /** Titles of the documents appended after the answers. */
  documents: string[];
}

export type ApplicationRenderer = (applicationId: string) => Promise<RenderedExport>;

export const EXPORT_AUDIENCE = 'service';

export async function countPdfPages(bytes: Uint8Array): Promise<number> {
  // Loaded with the first export, not with every server start.
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc.getPageCount();
}

/** A layout function without a page count (the production renderer), counted on this thread. */
export function createPdfLayout(render: PdfRenderer): PageCountingRenderer {
  return async (view, cover, documents, checklist) => {
    const bytes = await render(view, cover, documents, checklist);
    return { bytes, pages: await countPdfPages(bytes) };
  };
}

/** Reads the application and its documents (database, storage) here, lays it out with `layout`. */
export function createApplicationRenderer(
  deps: Omit<RenderDeps, 'render'>,
  layout: PageCountingRenderer,
): ApplicationRenderer {
  return async (applicationId) => {
    let laidOut: { pages: number; documents: string[] } | undefined;
    const rendered = await renderApplication(
      {
        ...deps,
        render: async (view, cover, documents, checklist) => {
          const { bytes, pages } = await layout(view, cover, documents, checklist);
          laidOut = { pages, documents: documents.map((d) => d.title) };
          return bytes;
        },
      },
      applicationId,
      EXPORT_AUDIENCE,
    );
    if (!laidOut) throw new Error('the renderer returned without laying out the application');
    return { bytes: rendered.bytes, version: rendered.version, ...laidOut };
  };
}

/** A render given up because the run is stopping (Ctrl-C): neither done nor failed. */
export class RenderCancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'RenderCancelledError';
  }
}
