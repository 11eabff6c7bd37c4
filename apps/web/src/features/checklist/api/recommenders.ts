// The applicant's recommenders (issue #30): invite, change, remove, remind. Each call answers the
// fresh checklist, which becomes the checklist query's data.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChecklistResponse, RecommenderBody } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';
import { checklistQueryKey } from './get-checklist';

function useChecklistMutation<V>(call: (variables: V) => Promise<ChecklistResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (checklist) => queryClient.setQueryData(checklistQueryKey, checklist),
  });
}

export function useAddRecommender() {
  return useChecklistMutation((body: RecommenderBody) =>
    callApi('POST /api/recommenders', { body }),
  );
}

export function useUpdateRecommender() {
  return useChecklistMutation(({ id, body }: { id: string; body: RecommenderBody }) =>
    callApi('PUT /api/recommenders/:id', { params: { id }, body }),
  );
}

export function useRemoveRecommender() {
  return useChecklistMutation((id: string) =>
    callApi('DELETE /api/recommenders/:id', { params: { id } }),
  );
}

export function useRemindRecommender() {
  return useChecklistMutation((id: string) =>
    callApi('POST /api/recommenders/:id/remind', { params: { id } }),
  );
}
