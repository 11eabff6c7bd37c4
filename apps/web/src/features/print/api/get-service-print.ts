import { type ServicePrintResponse } from '@admissions/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { SERVICE_TOKEN_PARAM } from '../../../config/paths';
import { callApi } from '../../../shared/api/call-api';

/** docs/api.md: GET /service/tmp-pdf?service_token=… — the answers the print view shows. */
export function getServicePrint(token: string): Promise<ServicePrintResponse> {
  // A refused token (401 expired or invalid, 403) is the staff member's problem to see, not an
  // applicant session ending: the route's declared access (service-token) sends no one to /login.
  return callApi('GET /service/tmp-pdf', { query: { [SERVICE_TOKEN_PARAM]: token } });
}

export function servicePrintQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['service-print', token],
    queryFn: () => getServicePrint(token),
    // The page shows the server's message itself (an expired link is not a crash).
    throwOnError: false,
  });
}

export function useServicePrint(token: string | null) {
  return useQuery({ ...servicePrintQueryOptions(token ?? ''), enabled: token !== null });
}
