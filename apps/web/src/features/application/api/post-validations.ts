import type { MessageResponse, ValidationsBody } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

/** POST /api/validations: the latest error map the applicant was shown. */
export function postValidations(errors: ValidationsBody): Promise<MessageResponse> {
  return callApi('POST /api/validations', { body: errors });
}
