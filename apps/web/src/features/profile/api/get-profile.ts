import type { ProfileResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function getProfile(): Promise<ProfileResponse> {
  return callApi('GET /api/profile');
}

export function profileQueryOptions() {
  return queryOptions({ queryKey: ['profile'], queryFn: getProfile });
}

export function useProfile() {
  return useQuery(profileQueryOptions());
}
