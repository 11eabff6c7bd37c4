// GET /api/checklist (issue #30): the applicant's checklist and recommenders. Every change the
// applicant makes answers the fresh checklist, which replaces this query's data.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChecklistResponse } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

/** While a file the applicant uploaded is being converted, the checklist is asked again this often. */
export const CHECKLIST_POLL_MS = 1500;

export const checklistQueryKey = ['checklist'] as const;

export function isConverting(checklist: ChecklistResponse | undefined): boolean {
  return checklist?.items.some((item) => item.upload?.status === 'converting') ?? false;
}

export const checklistQuery = queryOptions({
  queryKey: checklistQueryKey,
  queryFn: () => callApi('GET /api/checklist'),
  refetchInterval: (query) => (isConverting(query.state.data) ? CHECKLIST_POLL_MS : false),
  // Read again on every page that shows it: it changes without the applicant (a letter arrives,
  // the office asks or waives), and Final Steps' copy says nothing of the submit that followed.
  refetchOnMount: 'always',
  // A failure shows inside the checklist, never the page's error screen.
  throwOnError: false,
});

export function useChecklist() {
  return useQuery(checklistQuery);
}
