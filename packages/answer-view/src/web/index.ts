export { PrintView, DOCUMENTS_TITLE } from './print-view';
export type { PrintViewProps } from './print-view';
export { PRINT_VIEW_CSS } from './print-view-css';
