import type { LastPageBody, MessageResponse } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

export function saveLastPage(lastPage: LastPageBody['last_page']): Promise<MessageResponse> {
  return callApi('PUT /api/last-page', { body: { last_page: lastPage } });
}
