// What the sandbox children run for print: laying out an application PDF around the applicant's
// converted documents (platform/sandbox/sandbox-child.ts loads it by path, PRINT_SANDBOX_TASKS).
import {
  renderCountedApplicationPdf,
  warmPdfRenderer,
  type RenderApplicationInput,
  type RenderApplicationResult,
} from './pdf-renderer';

function renderApplicationTask(input: RenderApplicationInput): Promise<RenderApplicationResult> {
  return renderCountedApplicationPdf(input.view, input.cover, input.documents, input.checklist);
}

export const SANDBOX_TASKS = {
  'render-application': renderApplicationTask,
  'warm-pdf-renderer': async () => {
    await warmPdfRenderer();
    return null;
  },
} as const;
