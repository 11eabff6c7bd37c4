import { API_ROUTES } from '@admissions/api-contract';
import type { AddAnotherResponse, MessageResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function getAddAnother(): Promise<AddAnotherResponse> {
  return fetchJson<AddAnotherResponse>(API_ROUTES.addAnother, 'GET');
}

export function addAnotherQueryOptions() {
  return queryOptions({ queryKey: ['add-another'], queryFn: getAddAnother });
}

export function useAddAnother(enabled: boolean) {
  return useQuery({ ...addAnotherQueryOptions(), enabled });
}

export function saveAddAnother(buttonId: string, count: number): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.addAnother, 'PUT', {
    button_id: buttonId,
    num_components: count,
  });
}
