import { API_ROUTES } from '@admissions/api-contract';
import type { MessageResponse, WebStatusBody } from '@admissions/api-contract';
import { fetchJson } from '../../../shared/api/fetch-handler';

const RETRIES = 2;

/** POST /api/web-status, retried twice on failure (docs/api.md); the server only moves forward. */
export async function postWebStatus(
  webStatus: WebStatusBody['web_status'],
): Promise<MessageResponse> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
    try {
      return await fetchJson<MessageResponse>(API_ROUTES.webStatus, 'POST', {
        web_status: webStatus,
      });
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
