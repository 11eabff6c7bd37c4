// Layout is CPU-bound and lays out applicants' documents, so the in-process export lays out
// applications in a pool of sandbox children (one application at a time each, src/sandbox) while
// this process reads the database and storage and writes files. The export picks its own size.
import pino, { type Logger } from 'pino';
import { PRINT_SANDBOX_TASKS, createSandboxedRenderers, type PageCountingRenderer } from '../print';
import { createConfiguredSandbox } from '../../platform/sandbox/sandbox-pool';

export interface RenderPool {
  render: PageCountingRenderer;
  close(): Promise<void>;
}

export function createRenderPool(
  size: number,
  limits: Parameters<typeof createConfiguredSandbox>[0],
  logger: Logger = pino({ level: 'warn' }),
): RenderPool {
  // No requests to yield to in the export command: the children run at its own priority.
  const sandbox = createConfiguredSandbox(limits, logger, [PRINT_SANDBOX_TASKS], {
    size,
    niceness: 0,
  });
  return { render: createSandboxedRenderers(sandbox).layout, close: () => sandbox.close() };
}
