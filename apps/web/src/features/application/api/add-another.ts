import type { AddAnotherResponse, MessageResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function getAddAnother(): Promise<AddAnotherResponse> {
  return callApi('GET /api/add-another');
}

export function addAnotherQueryOptions() {
  return queryOptions({ queryKey: ['add-another'], queryFn: getAddAnother });
}

export function useAddAnother(enabled: boolean) {
  return useQuery({ ...addAnotherQueryOptions(), enabled });
}

export function saveAddAnother(buttonId: string, count: number): Promise<MessageResponse> {
  return callApi('PUT /api/add-another', {
    body: { button_id: buttonId, num_components: count },
  });
}
