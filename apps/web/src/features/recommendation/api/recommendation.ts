// The recommender's page (issue #30): the link's token is their only credential, so these are
// public calls (a 401 means nothing here). While a submitted file converts, the page is asked
// again until the letter is received or the conversion failed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecommendationBody, RecommendationPage } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

export const RECOMMENDATION_POLL_MS = 1500;

/** The token's shape (RecommendationTokenParams): anything else is no link of ours. */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export function isRecommendationToken(token: string): boolean {
  return TOKEN.test(token);
}

const recommendationKey = (token: string) => ['recommendation', token] as const;

export function useRecommendation(token: string) {
  return useQuery({
    queryKey: recommendationKey(token),
    queryFn: () => callApi('GET /public/recommendations/:token', { params: { token } }),
    refetchInterval: (query) =>
      query.state.data?.status === 'converting' ? RECOMMENDATION_POLL_MS : false,
    // A refused link (403, 410) is the page's message, not the error screen.
    throwOnError: false,
  });
}

export function useSubmitRecommendation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecommendationBody) =>
      callApi('POST /public/recommendations/:token', { params: { token }, body }),
    onSuccess: (answer) => {
      // converting: the page polls from here; received: done.
      queryClient.setQueryData<RecommendationPage>(recommendationKey(token), (page) =>
        page ? { ...page, status: answer.status, message: answer.message } : page,
      );
    },
    onError: () => {
      // Submitted meanwhile, or the link has changed: the page says what it is now.
      void queryClient.invalidateQueries({ queryKey: recommendationKey(token) });
    },
  });
}
