// The sensitive answer keys, computed from the definition when the SPA is built and inlined as a
// constant: the auth screens strip them from carried answers without loading the definition
// itself on /login (its JavaScript budget). Still one fact: the definition's `sensitive` flags.
import { SENSITIVE_ANSWER_KEYS } from '../../../packages/form/src/answer-roles';

export function defineSensitiveKeys(): Record<string, string> {
  return { __SENSITIVE_ANSWER_KEYS__: JSON.stringify(SENSITIVE_ANSWER_KEYS) };
}
