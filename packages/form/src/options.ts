// Turning an option source into options, checking an answer against them, and writing a choice
// together with its `_desc` companion: the SPA, the API and the print view share these.
import { companionKey } from './answer-keys';
import { compileDefinition } from './compile';
import {
  CA_PROVINCES,
  COUNTRIES,
  COUNTRIES_WITHOUT_USA,
  LANGUAGES,
  listYears,
  MONTHS,
  US_STATES,
} from './option-lists';
import type { PartnerConfig } from './partner';
import type {
  Answers,
  ApplicationDefinition,
  IndependentOptionSource,
  Option,
  OptionListName,
  OptionSource,
  Question,
} from './types';

export interface OptionContext {
  answers: Answers;
  now: Date;
  partner: PartnerConfig;
}

export const NAMED_LISTS: Readonly<Record<OptionListName, readonly Option[]>> = {
  countries: COUNTRIES,
  countriesWithoutUsa: COUNTRIES_WITHOUT_USA,
  usStates: US_STATES,
  caProvinces: CA_PROVINCES,
  months: MONTHS,
  languages: LANGUAGES,
};

/** Fills in {schoolName}, {shortSchoolName} and {admissionsOfficeName} in labels and help. */
export function resolveText(template: string, partner: PartnerConfig): string {
  if (!template.includes('{')) return template;
  return template
    .replaceAll('{schoolName}', partner.schoolName)
    .replaceAll('{shortSchoolName}', partner.shortSchoolName)
    .replaceAll('{admissionsOfficeName}', partner.admissionsOfficeName);
}

/** The source in force: a dependent select's source for the controlling answer, if any. */
export function selectOptionSource(
  source: OptionSource,
  answers: Answers,
): IndependentOptionSource | undefined {
  if (source.kind !== 'dependent') return source;
  const control = answers[source.key];
  return typeof control === 'string' && Object.hasOwn(source.byValue, control)
    ? source.byValue[control]
    : undefined;
}

export function resolveOptions(source: OptionSource, context: OptionContext): readonly Option[] {
  const active = selectOptionSource(source, context.answers);
  if (!active) return [];
  switch (active.kind) {
    case 'static':
      return active.options;
    case 'list':
      return NAMED_LISTS[active.list];
    case 'partner':
      return context.partner.entryTerms;
    case 'years':
      return listYears({
        start: context.now.getUTCFullYear() + (active.startOffset ?? 0),
        direction: active.direction,
        count: active.count,
      });
  }
}

const valueSets = new WeakMap<readonly Option[], ReadonlySet<string>>();

function valuesOf(options: readonly Option[]): ReadonlySet<string> {
  let set = valueSets.get(options);
  if (!set) {
    set = new Set(options.map((o) => o.value).filter((v) => v !== ''));
    valueSets.set(options, set);
  }
  return set;
}

/** Whether `value` is one of the source's options; years are checked arithmetically. */
export function isOptionValue(
  source: OptionSource,
  value: string,
  context: OptionContext,
): boolean {
  const active = selectOptionSource(source, context.answers);
  if (!active) return false;
  if (active.kind === 'years') {
    if (!/^\d{4}$/.test(value)) return false;
    const year = Number(value);
    const start = context.now.getUTCFullYear() + (active.startOffset ?? 0);
    return active.direction === 'past'
      ? year <= start && year > start - active.count
      : year >= start && year < start + active.count;
  }
  return valuesOf(resolveOptions(active, context)).has(value);
}

/** The label stored in the `_desc` companion, or '' for a value not in the list. */
export function describeOption(
  source: OptionSource,
  value: string,
  context: OptionContext,
): string {
  if (value === '') return '';
  return resolveOptions(source, context).find((o) => o.value === value)?.label ?? '';
}

function sourceForKey(question: Question, key: string): OptionSource | undefined {
  if (key === question.key) return question.options;
  if (key === question.yearKey) return question.yearOptions;
  return undefined;
}

/**
 * The answers to save when the applicant sets `key` to `value`: the value, its `_desc` companion
 * for a choice field, and '' for every dependent select (and companion) whose options came from
 * the old value. Keys the definition does not know are returned as given.
 */
export function buildAnswerPatch(
  definition: ApplicationDefinition,
  key: string,
  value: string,
  context: OptionContext,
): Record<string, string> {
  const patch: Record<string, string> = { [key]: value };
  const compiled = compileDefinition(definition);
  const found = compiled.byAnswerKey.get(key);
  if (!found) return patch;
  const { entry, owned } = found;
  const source = sourceForKey(entry.question, key);
  if (source && (owned.role === 'value' || owned.role === 'year')) {
    const companions = entry.owned.map((o) => o.key);
    const companion = companionKey(key);
    if (companions.includes(companion)) patch[companion] = describeOption(source, value, context);
  }
  if ((context.answers[key] ?? '') !== value) {
    for (const dependent of compiled.dependents.get(key) ?? []) {
      for (const { key: k } of dependent.owned) patch[k] = '';
    }
  }
  return patch;
}
