// The export module's public entry point: other modules and boot/ import only from here.
export { EXPORT_USAGE, ExportFatalError, ExportUsageError, runExportCommand } from './command';
export { runDataExportCommand } from './data-command';
export { DATA_EXPORT_USAGE, DATA_FORMATS, type DataFormat } from './data-options';
export { runDataExport, type DataExportSummary } from './data-run';
export { dataStateFile } from './data-state';
export {
  EXPORT_QUEUE,
  createQueueRenderer,
  EXPORT_QUEUE_DEFINITION,
  startExportWorker,
} from './export-jobs';
export { type Progress } from './progress';
export { createPdfLayout } from './render';
export { runExport } from './run';
