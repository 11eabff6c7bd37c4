import { QueryClient } from '@tanstack/react-query';
import { isUnauthorizedError } from './errors';

/**
 * docs/limits.md: no retry, cache and data never go stale on their own, no refetch on focus or mount,
 * errors to the error boundary. A session that ended is not a crash: the 401 handler already
 * sent the applicant to /login, so those errors stay out of the boundary.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        gcTime: Infinity,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchOnReconnect: false,
        throwOnError: (error) => !isUnauthorizedError(error),
      },
      mutations: {
        retry: false,
      },
    },
  });
}
