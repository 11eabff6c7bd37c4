import type { MessageResponse } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

/** POST /api/submit: 200 with the success message, or a ServerError (422 when incomplete). */
export function submitApplication(): Promise<MessageResponse> {
  // No body: the server reads an empty JSON body as none (services/api http/json-body.ts).
  return callApi('POST /api/submit');
}
