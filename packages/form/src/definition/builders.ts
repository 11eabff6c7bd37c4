// Small constructors so the definition reads like the application it describes. They only fill in
// the type and merge the extras; every rule still lives in the returned data.
import { when } from '../conditions';
import { CANADA, USA } from '../option-lists';
import { MESSAGES, ZIP_MIN_LENGTH } from '../messages';
import type {
  Condition,
  IndependentOptionSource,
  Option,
  OptionListName,
  OptionSource,
  Question,
} from '../types';

type Extra = Omit<Partial<Question>, 'key' | 'type' | 'label'>;

export const options = (list: readonly Option[]): IndependentOptionSource => ({
  kind: 'static',
  options: list,
});
export const listOf = (list: OptionListName): IndependentOptionSource => ({ kind: 'list', list });
export const pastYears = (count: number, startOffset = 0): IndependentOptionSource => ({
  kind: 'years',
  direction: 'past',
  count,
  startOffset,
});
export const futureYears = (count: number, startOffset = 0): IndependentOptionSource => ({
  kind: 'years',
  direction: 'future',
  count,
  startOffset,
});

export const YES_NO: readonly Option[] = [
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
];

/** Required; the message defaults to the label. */
export const required = (when?: Condition, message?: string) => ({
  ...(when ? { when } : {}),
  ...(message ? { message } : {}),
});

const make =
  (type: Question['type']) =>
  (key: string, label: string, extra: Extra = {}): Question => ({ key, type, label, ...extra });

export const text = make('text');
export const textarea = make('textarea');
export const date = make('date');
export const checkbox = make('checkbox');
export const phone = make('phone');
export const ssn = make('ssn');
export const file = make('file');

export const select = (key: string, label: string, source: OptionSource, extra: Extra = {}) =>
  make('select')(key, label, { options: source, ...extra });
export const radio = (key: string, label: string, source: OptionSource, extra: Extra = {}) =>
  make('radio')(key, label, { options: source, ...extra });
export const yesNo = (key: string, label: string, extra: Extra = {}) =>
  radio(key, label, options(YES_NO), extra);

export const monthYear = (
  monthKey: string,
  yearKey: string,
  label: string,
  years: IndependentOptionSource,
  extra: Extra = {},
): Question =>
  make('month-year')(monthKey, label, {
    options: listOf('months'),
    yearKey,
    yearOptions: years,
    ...extra,
  });

export const autocomplete = (
  key: string,
  label: string,
  category: NonNullable<Question['category']>,
  extra: Extra = {},
) => make('autocomplete')(key, label, { category, maxLength: 100, ...extra });

/** A document-or-essay pair: the `_doc` upload and the `_essay` text area of one tab group. */
export function statementTabs(group: string, label: string, extra: Extra = {}): Question[] {
  return [
    file(`${group}_doc`, label, { tab: { group, tab: 'upload' }, ...extra }),
    textarea(`${group}_essay`, label, {
      tab: { group, tab: 'essay' },
      usesPartnerLimit: true,
      ...extra,
    }),
  ];
}

export const email = (key: string, label: string, message: string, extra: Extra = {}) =>
  text(key, label, { maxLength: 254, format: { kind: 'email', message }, ...extra });

interface AddressOptions {
  /** Key prefix: '' (permanent), 'mailing_', 'parent_', 'hs_2_', ... */
  prefix: string;
  lineTwo: boolean;
  /** The first line searches addresses (docs/data-model.md autocomplete category `address`). */
  lookup: boolean;
  /** docs/validation.md: address line, city and country required (the permanent address). */
  requireLines: boolean;
  /** docs/validation.md: state required for the USA and Canada, ZIP of at least 5 for the USA. */
  stateZipRules: boolean;
  labels?: { line1?: string };
}

/**
 * Under the first line of an address block that completes places: the lookup has cities and ZIP
 * codes, not streets, so suggestions come from the City and ZIP fields and the street is typed.
 */
export const ADDRESS_LOOKUP_HELP =
  'Type your street yourself. Then start typing your city or ZIP code in the City or ' +
  'ZIP/Postal Code field and pick a suggestion: it fills in the city, state, ZIP code and country.';

/** One address block; the same rules serve the permanent, mailing, parent and school addresses. */
export function addressQuestions({
  prefix,
  lineTwo,
  lookup,
  requireLines,
  stateZipRules,
  labels = {},
}: AddressOptions): Question[] {
  const country = `${prefix}country`;
  const isUsa = when.equals(country, USA);
  const line1Label = labels.line1 ?? 'Address';
  const requiredLine: Extra = requireLines ? { required: required() } : {};
  return [
    lookup
      ? autocomplete(`${prefix}address_line_1`, line1Label, 'address', {
          ...requiredLine,
          help: ADDRESS_LOOKUP_HELP,
        })
      : text(`${prefix}address_line_1`, line1Label, requiredLine),
    ...(lineTwo ? [text(`${prefix}address_line_2`, 'Address Line 2')] : []),
    text(`${prefix}city`, 'City', requiredLine),
    select(
      `${prefix}state`,
      'State/Province',
      {
        kind: 'dependent',
        key: country,
        byValue: { [USA]: listOf('usStates'), [CANADA]: listOf('caProvinces') },
      },
      stateZipRules ? { required: required() } : {},
    ),
    text(`${prefix}zip`, 'ZIP/Postal Code', {
      maxLength: 10,
      ...(stateZipRules
        ? {
            required: required(isUsa),
            minLength: { value: ZIP_MIN_LENGTH, when: isUsa, message: MESSAGES.zipTooShort },
          }
        : {}),
    }),
    select(country, 'Country', listOf('countries'), requiredLine),
  ];
}
