// The checklist module's public entry point: other modules and boot/ import only from here.
export {
  CHECKLIST_CONVERSION_QUEUE,
  enqueueChecklistConversion,
  startChecklistConversionWorker,
  type ChecklistConversionJob,
} from './checklist-jobs';
export { readChecklists, type ChecklistSummary } from './checklist-batch';
export { selectChecklistProgress } from './checklist-progress';
export { readReceivedItems, type ReceivedChecklistItem } from './received-items';
export { checklistRoutes } from './checklist-routes';
export {
  createChecklistService,
  type ChecklistActor,
  type ChecklistService,
} from './checklist-service';
export { listChecklistEvents } from './checklist-store';
export { recommenders, checklistRequests, checklistWaivers, checklistAudit } from './schema';
