import { API_ROUTES } from '@admissions/api-contract';
import type { ProfileResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function getProfile(): Promise<ProfileResponse> {
  return fetchJson<ProfileResponse>(API_ROUTES.profile, 'GET');
}

export function profileQueryOptions() {
  return queryOptions({ queryKey: ['profile'], queryFn: getProfile });
}

export function useProfile() {
  return useQuery(profileQueryOptions());
}
