// validateAnswers: every rule of docs/validation.md that concerns the application's answers, read from the
// definition. Hidden questions are cleared first and never validated.
import { countCharacters, limitForRole } from './answer-keys';
import { compileDefinition, type QuestionEntry } from './compile';
import { evaluateCondition, isAnswered } from './conditions';
import {
  compareDates,
  countWholeYears,
  parseIsoDate,
  toCalendarDate,
  type CalendarDate,
} from './dates';
import { isValidEmail } from './auth-rules';
import { isChecked, PHONE_PATTERN, SSN_PATTERN } from './format';
import { MESSAGES, maximumYearMessage, minimumYearMessage, tooLongMessage } from './messages';
import { isOptionValue, resolveText, type OptionContext } from './options';
import { DEFAULT_PARTNER, type PartnerConfig } from './partner';
import type {
  Answers,
  ApplicationDefinition,
  DateRule,
  FormatRule,
  Question,
  ValidationErrors,
  VisibilityContext,
} from './types';
import { clearHiddenAnswers, isEntryVisible } from './visibility';

export interface ValidateOptions {
  /** The moment of validation; ages and year windows are measured from its UTC date. */
  now: Date;
  partner?: PartnerConfig;
  context?: VisibilityContext;
}

type AddMessage = (key: string, message: string) => void;

const FORMAT_PATTERNS: Readonly<Record<FormatRule['kind'], (value: string) => boolean>> = {
  phone: (v) => PHONE_PATTERN.test(v),
  ssn: (v) => SSN_PATTERN.test(v),
  email: (v) => isValidEmail(v.trim()),
};

const CHECKBOX_VALUES: readonly string[] = ['true', 'false'];
const FILE_ANSWERED = 'ANSWERED';

// Only own string values count: the engine must not trip over odd input on the server.
function sanitize(answers: Answers): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const key of Object.keys(answers)) {
    const value: unknown = answers[key];
    if (typeof value === 'string') clean[key] = value;
  }
  return clean;
}

function isMissing(question: Question, answers: Answers): boolean {
  const value = answers[question.key] ?? '';
  if (question.type === 'checkbox') return !isChecked(value);
  if (question.yearKey) return !isAnswered(value) || !isAnswered(answers[question.yearKey]);
  return !isAnswered(value);
}

function checkDate(rule: DateRule, value: string, today: CalendarDate, add: (m: string) => void) {
  const date = parseIsoDate(value);
  if (!date) {
    add(rule.invalidMessage);
    return;
  }
  if (rule.maxYearsAgo !== undefined) {
    const oldest = { ...today, year: today.year - rule.maxYearsAgo };
    if (compareDates(date, oldest) < 0) add(rule.tooOldMessage ?? rule.invalidMessage);
  }
  if (rule.minAgeYears !== undefined && countWholeYears(date, today) < rule.minAgeYears) {
    add((rule.tooYoungMessage ?? rule.invalidMessage).replace('{n}', String(rule.minAgeYears)));
  }
  if (rule.yearWindow) {
    const first = today.year - rule.yearWindow.before;
    const last = today.year + rule.yearWindow.after;
    if (date.year < first) add(minimumYearMessage(first));
    if (date.year > last) add(maximumYearMessage(last));
  }
}

function checkChoice(question: Question, value: string, options: OptionContext): boolean {
  switch (question.type) {
    case 'checkbox':
      return CHECKBOX_VALUES.includes(value);
    case 'file':
      return value === FILE_ANSWERED;
    default:
      return !question.options || isOptionValue(question.options, value, options);
  }
}

function validateQuestion(
  entry: QuestionEntry,
  answers: Answers,
  options: OptionContext,
  today: CalendarDate,
  add: AddMessage,
): void {
  const { question } = entry;
  const key = question.key;
  const value = answers[key] ?? '';
  const addHere = (message: string) => add(key, message);

  const rule = question.required;
  if (
    rule &&
    (!rule.when || evaluateCondition(rule.when, answers)) &&
    isMissing(question, answers)
  ) {
    addHere(rule.message ?? resolveText(question.label, options.partner));
  }

  // Every owned key is bounded, companions included, so the server can trust stored sizes.
  for (const owned of entry.owned) {
    const ownedValue = answers[owned.key] ?? '';
    const limit = limitForRole(question, owned.role, options.partner);
    if (ownedValue.length > limit && countCharacters(ownedValue) > limit) {
      add(owned.role === 'value' || owned.role === 'year' ? key : owned.key, tooLongMessage(limit));
    }
  }

  if (question.yearKey) {
    // docs/validation.md: month and year errors are combined on the month-year field.
    const year = answers[question.yearKey] ?? '';
    if (isAnswered(value) !== isAnswered(year)) addHere(MESSAGES.monthYearIncomplete);
    if (isAnswered(value) && question.options && !isOptionValue(question.options, value, options)) {
      addHere(MESSAGES.optionInvalid);
    }
    if (
      isAnswered(year) &&
      question.yearOptions &&
      !isOptionValue(question.yearOptions, year, options)
    ) {
      addHere(MESSAGES.optionInvalid);
    }
    return;
  }

  if (!isAnswered(value)) return;
  if (question.format && !FORMAT_PATTERNS[question.format.kind](value)) {
    addHere(question.format.message);
  }
  const minLength = question.minLength;
  if (
    minLength &&
    (!minLength.when || evaluateCondition(minLength.when, answers)) &&
    countCharacters(value.trim()) < minLength.value
  ) {
    addHere(minLength.message);
  }
  if (question.date) checkDate(question.date, value.trim(), today, addHere);
  if (question.type !== 'autocomplete' && !checkChoice(question, value, options)) {
    addHere(MESSAGES.optionInvalid);
  }
}

/**
 * Messages per answer key for the answers as they stand, duplicates removed; an empty object
 * means the application can be submitted. Never throws for any map of strings.
 */
export function validateAnswers(
  definition: ApplicationDefinition,
  answers: Answers,
  { now, partner = DEFAULT_PARTNER, context = {} }: ValidateOptions,
): ValidationErrors {
  const effective = clearHiddenAnswers(definition, sanitize(answers), context);
  const options: OptionContext = { answers: effective, now, partner };
  const today = toCalendarDate(now);
  const collected = new Map<string, Set<string>>();
  const add: AddMessage = (key, message) => {
    const set = collected.get(key) ?? new Set<string>();
    set.add(message);
    collected.set(key, set);
  };

  const { entries } = compileDefinition(definition);
  for (const entry of entries) {
    if (isEntryVisible(entry, effective, context)) {
      validateQuestion(entry, effective, options, today, add);
    }
  }

  // A document-or-essay group is answered by either tab; the message goes to the tab in view.
  for (const group of definition.tabGroups) {
    if (!group.required) continue;
    const members = entries.filter((e) => e.question.tab?.group === group.id);
    const shown = members.some((e) => isEntryVisible(e, effective, {}));
    const answered = members.some((e) => isAnswered(effective[e.question.key]));
    if (!shown || answered) continue;
    const chosen = context.tabs?.[group.id] ?? group.defaultTab;
    const tab = group.tabs.find((t) => t.id === chosen) ?? group.tabs[0];
    if (tab) add(tab.questionKey, group.required.message);
  }

  const errors: ValidationErrors = {};
  for (const [key, messages] of collected) errors[key] = [...messages];
  return errors;
}
