import type { ApplicationsResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';
import { measureClockOffset, type ApplicationsView } from '../lib/round-clock';

export const APPLICATIONS_QUERY_KEY = ['applications'] as const;

/** The answer with how far the device's clock is from the server's (ApplicationsView). */
export function readApplicationsView(
  response: ApplicationsResponse,
  sentAt: number,
  receivedAt: number,
): ApplicationsView {
  return {
    ...response,
    clockOffsetMs: measureClockOffset(response.server_time, sentAt, receivedAt),
    receivedAt,
  };
}

/** GET /api/applications: the applicant's applications, the rounds and the server's clock. */
export async function getApplications(): Promise<ApplicationsView> {
  const sentAt = Date.now();
  const response = await callApi('GET /api/applications');
  return readApplicationsView(response, sentAt, Date.now());
}

export function applicationsQueryOptions() {
  return queryOptions({ queryKey: APPLICATIONS_QUERY_KEY, queryFn: getApplications });
}

/**
 * The rounds are an addition to the page, never a reason to refuse it: a failed call leaves the
 * application as it was without rounds (no banner, no picker) instead of the error screen.
 */
export function useApplications(enabled = true) {
  return useQuery({ ...applicationsQueryOptions(), enabled, throwOnError: false });
}
