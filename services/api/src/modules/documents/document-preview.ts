// The applicant's proof of a conversion (page count and first-page thumbnail), drawn once by the
// conversion job from the stored PDF in a sandbox child (conversion/render-preview.ts).
import type { Logger } from 'pino';
import type { SandboxPool } from '../../platform/sandbox/sandbox-pool';
import type { DocumentPreview } from './conversion/render-preview';

export type { DocumentPreview };

export interface DocumentPreviewer {
  /** The preview, or null when it could not be drawn (the document itself stays converted). */
  preview(pdf: Uint8Array): Promise<DocumentPreview | null>;
}

export function createDocumentPreviewer(deps: {
  sandbox: SandboxPool;
  logger: Logger;
  /** Wall-clock limit of the sandboxed step (the pool's own when unset). */
  timeoutMs?: number;
}): DocumentPreviewer {
  return {
    async preview(pdf) {
      try {
        return await deps.sandbox.run<DocumentPreview>('render-preview', pdf, {
          timeoutMs: deps.timeoutMs,
        });
      } catch (error) {
        // The PDF is what the office reads and it is stored; a missing picture of it is no
        // reason to refuse the applicant's file, so this is logged, not failed.
        deps.logger.warn({ err: error }, 'could not draw the preview of a converted document');
        return null;
      }
    },
  };
}
