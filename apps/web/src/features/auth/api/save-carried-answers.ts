import { callApi } from '../../../shared/api/call-api';

/**
 * After login, what the visitor typed before having an account is saved (docs/product.md, docs/behaviour.md). Keys the
 * definition does not know (an old tab, a stale link) are left out rather than failing the save.
 */
export async function saveCarriedAnswers(
  answers: Record<string, string> | undefined,
): Promise<void> {
  if (!answers) return;
  // The definition (with its country and language lists) is most of the application's code;
  // /login loads it only when there are answers to check, and the next page needs it anyway.
  const { isKnownAnswerKey } = await import('@admissions/form');
  const patch = Object.fromEntries(
    Object.entries(answers).filter(([key, value]) => isKnownAnswerKey(key) && value !== ''),
  );
  if (Object.keys(patch).length === 0) return;
  await callApi('PUT /api/answer', { body: patch });
}
