// The documents module's public entry point: other modules and boot/ import only from here.
import { locateEntry } from '../../platform/service-root';
export {
  CONVERSION_QUEUE_NAME,
  conversionExpirySeconds,
  defineConversionQueue,
  enqueueConversion,
  type ConversionJob,
} from './conversion-jobs';
export { startConversionRuntime, type ConversionRuntime } from './conversion-runtime';
export { type DocumentConverter } from './conversion/convert-document';
export { isDocumentRejected } from './conversion/conversion-errors';
export { documentRoutes } from './document-routes';
export { createDocumentService, type DocumentService } from './document-service';
export { createDocumentStore, type DocumentAnswerRow } from './document-store';
export {
  createDocumentKey,
  createUploadKey,
  LOCAL_UPLOAD,
  UPLOAD_POLICY,
} from './document-storage';

/** The sandbox task registry for uploads (the pools that convert documents load it). */
export const DOCUMENT_SANDBOX_TASKS = locateEntry(
  'src/modules/documents/document-sandbox-tasks.ts',
);
export { documentUploads, documentConversions, documentAnswers } from './schema';
