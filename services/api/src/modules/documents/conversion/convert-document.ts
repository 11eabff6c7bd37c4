// The dispatcher: checks what every upload must satisfy, detects the type by content and hands
// the bytes to that type's converter (one file each). All of that parses an applicant's bytes, so
// it runs in a sandbox child (src/sandbox), never on this process's event loop; only a docx's
// LibreOffice step runs from here, and LibreOffice is a separate process of its own.
import { MAX_FILE_NAME_LENGTH, MAX_FILE_SIZE_BYTES } from '@admissions/form';
import type { Logger } from 'pino';
import { DocumentRejectedError, isDocumentRejected, type RejectionCode } from './conversion-errors';
import { SandboxTaskError } from '../../../platform/sandbox/serialized-error';
import { convertCheckedDocx } from './convert-docx';
import { detectFileType, type DocumentType } from './detect-file-type';
import type { OfficePool } from './libreoffice/office-pool';
import {
  SandboxCrashError,
  isSandboxLimit,
  type SandboxPool,
} from '../../../platform/sandbox/sandbox-pool';

export interface ConvertedDocument {
  type: DocumentType;
  pdf: Uint8Array;
}

/**
 * The converted PDF, or null for a docx that passed its checks and now goes to LibreOffice as
 * `docxPackage` (the package the check cleaned).
 */
export interface ConvertUploadResult {
  type: DocumentType;
  pdf: Uint8Array | null;
  docxPackage?: Uint8Array;
  /** What the docx rewrite left out, for the first page of the converted document. */
  notes?: string[];
}

export interface ConvertRequest {
  bytes: Uint8Array;
  fileName: string;
}

/** The checks that need no parsing, in the order the SPA shows them (docs/validation.md). */
export function checkUpload({ bytes, fileName }: ConvertRequest): DocumentType {
  if ([...fileName].length > MAX_FILE_NAME_LENGTH) {
    throw new DocumentRejectedError('FILE_NAME_TOO_LONG');
  }
  if (bytes.length === 0) throw new DocumentRejectedError('FILE_EMPTY');
  if (bytes.length > MAX_FILE_SIZE_BYTES) throw new DocumentRejectedError('FILE_TOO_LARGE');
  const type = detectFileType(bytes);
  if (!type) throw new DocumentRejectedError('FILE_TYPE', 'unrecognised content');
  return type;
}

export function createDocumentConverter(deps: {
  pool: OfficePool;
  sandbox: SandboxPool;
  logger: Logger;
  /** Wall-clock limit of one sandboxed step (the pool's own when unset). */
  timeoutMs?: number;
}) {
  const { pool, sandbox, logger } = deps;

  /**
   * A step killed for memory, CPU or time is the document's fault (it would do it again). A child
   * that died by itself may have been unlucky: once more in a fresh child, then it is the document.
   */
  const runStep = async <T>(task: string, input: unknown): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await sandbox.run<T>(task, input, { timeoutMs: deps.timeoutMs });
      } catch (error) {
        if (isSandboxLimit(error)) throw new DocumentRejectedError('TOO_COMPLEX', error.message);
        // A converter's refusal, thrown in the child: the same error on this side.
        if (error instanceof SandboxTaskError && error.name === 'DocumentRejectedError') {
          throw new DocumentRejectedError(error.code as RejectionCode, error.detail);
        }
        if (!(error instanceof SandboxCrashError)) throw error;
        if (attempt >= 2) throw new DocumentRejectedError('CONVERSION_FAILED', error.message);
        logger.warn(
          { task, err: error },
          'sandbox child crashed on a document; trying a fresh one',
        );
      }
    }
  };

  return {
    async convert(request: ConvertRequest): Promise<ConvertedDocument> {
      const started = performance.now();
      let type: DocumentType | undefined;
      try {
        const checked = await runStep<ConvertUploadResult>('convert-upload', request);
        type = checked.type;
        let pdf = checked.pdf;
        if (!pdf) {
          // LibreOffice gets the package the rewrite returned (objects' binaries, macros,
          // external links, template link, chart workbooks and comments taken out), never the
          // upload as it came.
          pdf = await convertCheckedDocx(checked.docxPackage ?? request.bytes, pool, logger);
          const stamped = await runStep<Uint8Array | null>('check-office-pdf', {
            pdf,
            notes: checked.notes,
          });
          if (stamped) pdf = stamped;
        }
        logger.info(
          { type, bytes: request.bytes.length, ms: Math.round(performance.now() - started) },
          'document converted',
        );
        return { type, pdf };
      } catch (error) {
        const ms = Math.round(performance.now() - started);
        if (isDocumentRejected(error)) {
          logger.info({ type, code: error.code, detail: error.detail, ms }, 'document rejected');
        } else {
          logger.warn({ type, err: error, ms }, 'conversion failed');
        }
        throw error;
      }
    },
  };
}

export type DocumentConverter = ReturnType<typeof createDocumentConverter>;
