// What the API accepts in PUT /api/answer: only keys the definition knows (with their companions),
// each within its length (docs/design-decisions.md, 5).
import { countCharacters, limitForRole } from './answer-keys';
import { compileDefinition } from './compile';
import { APPLICATION_DEFINITION } from './definition';
import { DEFAULT_PARTNER, type PartnerConfig } from './partner';
import type { ApplicationDefinition } from './types';

export function listAllowedAnswerKeys(definition: ApplicationDefinition): string[] {
  return [...compileDefinition(definition).byAnswerKey.keys()];
}

/** Every answer key of the application, `_desc` companions, years and school codes included. */
export const ALLOWED_ANSWER_KEYS: ReadonlySet<string> = new Set(
  listAllowedAnswerKeys(APPLICATION_DEFINITION),
);

export function isKnownAnswerKey(
  key: string,
  definition: ApplicationDefinition = APPLICATION_DEFINITION,
): boolean {
  return compileDefinition(definition).byAnswerKey.has(key);
}

/** The longest value the key may hold in characters, or undefined for an unknown key. */
export function maxLengthFor(
  key: string,
  partner: PartnerConfig = DEFAULT_PARTNER,
  definition: ApplicationDefinition = APPLICATION_DEFINITION,
): number | undefined {
  const found = compileDefinition(definition).byAnswerKey.get(key);
  return found ? limitForRole(found.entry.question, found.owned.role, partner) : undefined;
}

export interface AnswerPatchProblem {
  key: string;
  problem: 'unknown' | 'too-long' | 'not-a-string';
  limit?: number;
}

/** The server's check of a PUT /api/answer body: an empty list means it may be saved. */
export function checkAnswerPatch(
  patch: Readonly<Record<string, unknown>>,
  partner: PartnerConfig = DEFAULT_PARTNER,
  definition: ApplicationDefinition = APPLICATION_DEFINITION,
): AnswerPatchProblem[] {
  const problems: AnswerPatchProblem[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const limit = maxLengthFor(key, partner, definition);
    if (limit === undefined) problems.push({ key, problem: 'unknown' });
    else if (typeof value !== 'string') problems.push({ key, problem: 'not-a-string' });
    else if (countCharacters(value) > limit) problems.push({ key, problem: 'too-long', limit });
  }
  return problems;
}

/** A problem of checkAnswerPatch as the sentence the API answers with (PUT /api/answer, the prefill CLI). */
export function describeAnswerProblem(problem: AnswerPatchProblem): string {
  switch (problem.problem) {
    case 'unknown':
      return `"${problem.key}" is not a question of this application.`;
    case 'too-long':
      return `The answer to "${problem.key}" is too long (at most ${problem.limit} characters).`;
    case 'not-a-string':
      return `The answer to "${problem.key}" must be text.`;
  }
}

/** True for the answer key of a file question (`*_doc`), the only keys that take uploads. */
export function isFileQuestion(
  key: string,
  definition: ApplicationDefinition = APPLICATION_DEFINITION,
): boolean {
  const found = compileDefinition(definition).byAnswerKey.get(key);
  return found?.entry.question.type === 'file' && found.entry.question.key === key;
}
