// Which answer keys a question owns, and how long each may be. The API uses this to refuse unknown
// keys and over-long values (docs/design-decisions.md, 5); the engine uses it to clear a hidden question whole.
import type { InputType, Question } from './types';
import type { PartnerConfig } from './partner';
import { TEXT_MAX_LENGTH, TEXTAREA_MAX_LENGTH } from './messages';

export const COMPANION_SUFFIX = '_desc';

/** The key holding the label of the chosen option (docs/data-model.md). */
export function companionKey(key: string): string {
  return `${key}${COMPANION_SUFFIX}`;
}

const CHOICE_TYPES: ReadonlySet<InputType> = new Set(['select', 'radio', 'month-year']);

/** Choice fields store a `_desc` companion; checkboxes store 'true'/'false' and have none. */
export function isChoiceType(type: InputType): boolean {
  return CHOICE_TYPES.has(type);
}

export type AnswerKeyRole = 'value' | 'companion' | 'year' | 'year-companion' | 'code';

export interface OwnedAnswerKey {
  key: string;
  role: AnswerKeyRole;
}

/** Every answer key a question writes: its value, companions, a month-year's year, a code. */
export function listOwnedAnswerKeys(question: Question): OwnedAnswerKey[] {
  const owned: OwnedAnswerKey[] = [{ key: question.key, role: 'value' }];
  const choice = isChoiceType(question.type);
  if (choice) owned.push({ key: companionKey(question.key), role: 'companion' });
  if (question.yearKey) {
    owned.push({ key: question.yearKey, role: 'year' });
    if (choice) owned.push({ key: companionKey(question.yearKey), role: 'year-companion' });
  }
  if (question.codeKey) owned.push({ key: question.codeKey, role: 'code' });
  return owned;
}

const DEFAULT_LIMITS: Readonly<Record<InputType, number>> = {
  text: TEXT_MAX_LENGTH,
  textarea: TEXTAREA_MAX_LENGTH,
  date: 10,
  password: 256,
  ssn: 11,
  select: 64,
  radio: 64,
  checkbox: 5,
  phone: 14,
  'month-year': 2,
  autocomplete: 100,
  file: 16,
};

const ROLE_LIMITS: Readonly<Record<Exclude<AnswerKeyRole, 'value'>, number>> = {
  companion: 255,
  year: 4,
  'year-companion': 255,
  code: 64,
};

/** The limit for one of a question's keys, in characters (code points). */
export function limitForRole(
  question: Question,
  role: AnswerKeyRole,
  partner: PartnerConfig,
): number {
  if (role !== 'value') return ROLE_LIMITS[role];
  if (question.usesPartnerLimit) return partner.textAreaLimit;
  return question.maxLength ?? DEFAULT_LIMITS[question.type];
}

/** Counted as a person counts: an emoji or accented letter is one character. */
export function countCharacters(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}
