// Answer keys with a role outside the form — protected answers, the applicant's name — read from
// the definition's own flags (`sensitive`, `neverPrefilled`, `applicantName`), so a question
// marked there is protected or used everywhere at once: the SPA's navigation state, the API's
// encryption, prefill refusals, staff masking, log redaction, covers and file names.
import { compileDefinition } from './compile';
import { APPLICATION_DEFINITION } from './definition';
import type { ApplicationDefinition, Question } from './types';

function ownedKeysWhere(
  definition: ApplicationDefinition,
  test: (question: Question) => boolean,
): readonly string[] {
  return compileDefinition(definition)
    .entries.filter((entry) => test(entry.question))
    .flatMap((entry) => entry.owned.map((owned) => owned.key));
}

/** An identification number: sealed at rest, masked wherever staff see it. */
export function isIdentifierQuestion(question: Question): boolean {
  return question.sensitive === 'identifier';
}

// Marked pure: computed from the definition, they must not pull it into pages that never use
// them (/login's budget).

/** Never carried in navigation state or prefill links, never logged: SSN, A-Number, disclosures. */
export const SENSITIVE_ANSWER_KEYS: readonly string[] = /* @__PURE__ */ ownedKeysWhere(
  APPLICATION_DEFINITION,
  (q) => q.sensitive !== undefined,
);

/** Sealed at rest (docs/design-decisions.md, 7) and masked for staff: SSN and A-Number. */
export const IDENTIFIER_ANSWER_KEYS: readonly string[] = /* @__PURE__ */ ownedKeysWhere(
  APPLICATION_DEFINITION,
  isIdentifierQuestion,
);

/** Never in a prefill link (docs/design-decisions.md, 9): the sensitive and disciplinary answers. */
export const PREFILL_REFUSED_ANSWER_KEYS: readonly string[] = /* @__PURE__ */ ownedKeysWhere(
  APPLICATION_DEFINITION,
  (q) => q.sensitive !== undefined || q.neverPrefilled === true,
);

export function stripSensitiveAnswers(answers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (!SENSITIVE_ANSWER_KEYS.includes(key)) kept[key] = value;
  }
  return kept;
}

export interface ApplicantNameKeys {
  first: string;
  middle: string;
  last: string;
}

function findApplicantNameKeys(definition: ApplicationDefinition): ApplicantNameKeys {
  const keys: Partial<ApplicantNameKeys> = {};
  for (const { question } of compileDefinition(definition).entries) {
    if (question.applicantName) keys[question.applicantName] = question.key;
  }
  const { first, middle, last } = keys;
  if (!first || !middle || !last) throw new Error('the definition must name the applicant');
  return { first, middle, last };
}

/** The answer keys of the applicant's first, middle and last name. */
export const APPLICANT_NAME_KEYS: ApplicantNameKeys =
  /* @__PURE__ */ findApplicantNameKeys(APPLICATION_DEFINITION);
