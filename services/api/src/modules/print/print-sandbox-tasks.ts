// What the sandbox children run for print: laying out an application PDF around the applicant's
// converted documents (platform/sandbox/sandbox-child.ts loads it by path, PRINT_SANDBOX_TASKS).
import { PDFDocument } from 'pdf-lib';
import {
  renderApplicationPdf,
  warmPdfRenderer,
  type RenderApplicationInput,
  type RenderApplicationResult,
} from './pdf-renderer';

async function renderApplicationTask(
  input: RenderApplicationInput,
): Promise<RenderApplicationResult> {
  const bytes = await renderApplicationPdf(input.view, input.cover, input.documents);
  const pages = input.countPages
    ? (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount()
    : null;
  return { bytes, pages };
}

export const SANDBOX_TASKS = {
  'render-application': renderApplicationTask,
  'warm-pdf-renderer': async () => {
    await warmPdfRenderer();
    return null;
  },
} as const;
