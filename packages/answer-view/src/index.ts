export type {
  AnswerPageView,
  AnswerRow,
  AnswerRowKind,
  AnswerSectionView,
  AnswerView,
  ApplicationCover,
  DocumentView,
  PdfChecklistItemInput,
  PdfDocumentInput,
} from './view-model';
export {
  buildAnswerView,
  collectAnswerPairs,
  formatAnswerDate,
  formatApplicantName,
  maskIdentifier,
  resolveChosenTabs,
} from './build-answer-view';
export type { AnswerViewAudience, AnswerViewExtras, DocumentRecord } from './build-answer-view';
export { formatDocumentSize } from './document-size';
export { listSectionGroups, type SectionGroup } from './section-groups';
export { COVER_HEADING, formatCoverTimestamp, listCoverLines } from './cover';
export { stripBidiControls } from './display-text';
