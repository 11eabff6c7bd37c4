import { API_ROUTES } from '@admissions/api-contract';
import type { MessageResponse, ValidationsBody } from '@admissions/api-contract';
import { fetchJson } from '../../../shared/api/fetch-handler';

/** POST /api/validations: the latest error map the applicant was shown. */
export function postValidations(errors: ValidationsBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.validations, 'POST', errors);
}
