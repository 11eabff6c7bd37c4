import { API_ROUTES } from '@admissions/api-contract';
import type { LastPageBody, MessageResponse } from '@admissions/api-contract';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function saveLastPage(lastPage: LastPageBody['last_page']): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.lastPage, 'PUT', { last_page: lastPage });
}
