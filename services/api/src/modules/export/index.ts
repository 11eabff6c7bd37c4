// The export module's public entry point: other modules and boot/ import only from here.
export { EXPORT_USAGE, ExportFatalError, ExportUsageError, runExportCommand } from './command';
export {
  EXPORT_QUEUE,
  createQueueRenderer,
  EXPORT_QUEUE_DEFINITION,
  startExportWorker,
} from './export-jobs';
export { type Progress } from './progress';
export { createPdfLayout } from './render';
export { runExport } from './run';
