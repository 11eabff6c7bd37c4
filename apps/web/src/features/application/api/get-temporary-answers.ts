import { API_ROUTES } from '@admissions/api-contract';
import type { TemporaryAnswersResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function getTemporaryAnswers(token: string): Promise<TemporaryAnswersResponse> {
  const query = new URLSearchParams({ token }).toString();
  return fetchJson<TemporaryAnswersResponse>(`${API_ROUTES.temporaryAnswers}?${query}`, 'GET');
}

export function temporaryAnswersQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['temporary-answers', token],
    queryFn: () => getTemporaryAnswers(token),
    retry: false,
    // An expired link leaves an empty application, not an error screen.
    throwOnError: false,
  });
}

/** A prefill link's answers for an anonymous visitor; `token` null means there is none. */
export function useTemporaryAnswers(token: string | null) {
  return useQuery({ ...temporaryAnswersQueryOptions(token ?? ''), enabled: token !== null });
}
