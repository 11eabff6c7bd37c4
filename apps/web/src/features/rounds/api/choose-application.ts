import type { ChooseApplicationBody } from '@admissions/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';
import type { ApplicationsView } from '../lib/round-clock';
import { APPLICATIONS_QUERY_KEY, readApplicationsView } from './get-applications';

/** PUT /api/application: makes the application in `round` the current one, starting it if need be. */
export async function chooseApplication(body: ChooseApplicationBody): Promise<ApplicationsView> {
  const sentAt = Date.now();
  const response = await callApi('PUT /api/application', { body });
  return readApplicationsView(response, sentAt, Date.now());
}

/**
 * Choosing another application changes what every applicant call answers (/api/profile,
 * /api/tabs, /api/document-answer, /api/pdf, …): every cached query is fetched again, the inactive
 * ones too (the client never refetches on mount), and only then is the new list of applications
 * put in the cache, so the application pages remount on the new application's own data.
 */
export function useChooseApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseApplication,
    onSuccess: async (view) => {
      await queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== APPLICATIONS_QUERY_KEY[0],
        refetchType: 'all',
      });
      queryClient.setQueryData<ApplicationsView>(APPLICATIONS_QUERY_KEY, view);
    },
  });
}
