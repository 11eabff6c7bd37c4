import { API_ROUTES } from '@admissions/api-contract';
import type { AnswerPatch, MessageResponse } from '@admissions/api-contract';
import { fetchJson } from '../../../shared/api/fetch-handler';

/** PUT /api/answer: the server merges the patch into the saved answers. */
export function saveAnswers(patch: AnswerPatch): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.answer, 'PUT', patch);
}
