import type { TemporaryAnswersResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function getTemporaryAnswers(token: string): Promise<TemporaryAnswersResponse> {
  return callApi('GET /public/tmp', { query: { token } });
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
