// The print module's public entry point: other modules and boot/ import only from here.
import { locateEntry } from '../../platform/service-root';
export { sendPdfAttachment } from './pdf-file-name';
export { ORPHAN_PDF_GRACE_MS, deleteOrphanApplicationPdfs } from './orphan-pdfs';
export { PDF_QUEUE, enqueuePdfJob, startPdfWorker, type PdfJob } from './pdf-jobs';
export { createApplicationPdfKey } from './pdf-keys';
export { createSandboxedRenderers } from './pdf-renderer';
export { pdfRoutes } from './pdf-routes';
export { createApplicationPdfService, type ApplicationPdfService } from './pdf-service';
export { createPdfStore } from './pdf-store';
export { readApplicationSnapshot, type ApplicationSnapshot } from './read-application';
export {
  buildPrintView,
  listShownKeys,
  renderApplication,
  type PageCountingRenderer,
  type PdfDocumentInput,
  type PdfRenderer,
  type RenderDeps,
} from './render-application';
export { buildServicePrint } from './service-print';

/** The sandbox task registry for laying out application PDFs. */
export const PRINT_SANDBOX_TASKS = locateEntry('src/modules/print/print-sandbox-tasks.ts');
export { applicationPdfs } from './schema';
