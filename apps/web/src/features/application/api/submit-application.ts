import { API_ROUTES } from '@admissions/api-contract';
import type { MessageResponse } from '@admissions/api-contract';
import { fetchJson } from '../../../shared/api/fetch-handler';

/** POST /api/submit: 200 with the success message, or a ServerError (422 when incomplete). */
export function submitApplication(): Promise<MessageResponse> {
  // Every call carries a JSON content type, and the server refuses an empty JSON body.
  return fetchJson<MessageResponse>(API_ROUTES.submit, 'POST', {});
}
