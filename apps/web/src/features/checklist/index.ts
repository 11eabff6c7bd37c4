// The checklist feature's public entry point (issue #30): the applicant's checklist (Final Steps,
// /completion) and the item list the staff panel shows too.
export { ApplicantChecklist, CHECKLIST_HEADINGS } from './components/applicant-checklist';
export type { ApplicantChecklistProps } from './components/applicant-checklist';
export { ChecklistItems, describeProgress } from './components/checklist-items';
export { formatChecklistTime, STATUS_LABELS } from './lib/checklist-texts';
// The pieces the recommender's page and the staff panel share with the checklist: imported from
// here, they travel in the checklist's chunk instead of small shared files that Rollup merges into
// chunks a first visit to /login loads (apps/web/README.md, "Bundle budget").
export {
  CHECKLIST_FILE_ACCEPT,
  CHECKLIST_FILE_RULES,
  checkChecklistFile,
  readChecklistFile,
} from './lib/checklist-file';
export { FileDropZone } from './components/file-drop-zone';
export { SelectField } from './components/select-field';
export { TextareaField } from './components/textarea-field';
