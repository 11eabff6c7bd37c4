import type { MessageResponse, WebStatusBody } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

const RETRIES = 2;

/** POST /api/web-status, retried twice on failure (docs/api.md); the server only moves forward. */
export async function postWebStatus(
  webStatus: WebStatusBody['web_status'],
): Promise<MessageResponse> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
    try {
      return await callApi('POST /api/web-status', { body: { web_status: webStatus } });
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
