import type { AnswerPatch, MessageResponse } from '@admissions/api-contract';
import { callApi } from '../../../shared/api/call-api';

/** PUT /api/answer: the server merges the patch into the saved answers. */
export function saveAnswers(patch: AnswerPatch): Promise<MessageResponse> {
  return callApi('PUT /api/answer', { body: patch });
}
