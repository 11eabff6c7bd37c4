import { TextInput } from '@mantine/core';
import type { AddressRecord, LookupRecord } from '@admissions/api-contract';
import {
  APPLICATION_DEFINITION,
  findQuestionEntry,
  isAnswered,
  isKnownAnswerKey,
  limitForRole,
  type Answers,
} from '@admissions/form';
import { LookupAutocomplete } from '../../../shared/ui/lookup-autocomplete';
import { useAnswerValue } from '../state/application-context';
import type { InputProps } from './input-props';
import { getPartner } from '../../../shared/lib/partner';
import { TextField, widthForLimit } from './text-inputs';

const ADDRESS_LINE = 'address_line_1';
const SCHOOL_NAME = 'name';
/** The fields of an address block that search places (a city or a ZIP code). */
const PLACE_FIELDS = ['city', 'zip'] as const;
/** Lines the applicant types; a record fills them only while they are empty. */
const ADDRESS_LINES = ['address_line_1', 'address_line_2'] as const;

// Written in this order: a country change clears the state, so the state comes after it.
const RECORD_FIELDS = [
  'address_line_1',
  'address_line_2',
  'city',
  'country',
  'state',
  'zip',
] as const;

/**
 * The answers a picked record fills: record fields are question-key suffixes (`hs_` + `city`),
 * the school code goes to the question's code key; keys the definition lacks are skipped.
 */
export function mapLookupRecord(
  key: string,
  codeKey: string | undefined,
  record: LookupRecord,
): [string, string][] {
  const prefix = key.endsWith(ADDRESS_LINE)
    ? key.slice(0, -ADDRESS_LINE.length)
    : key.endsWith(SCHOOL_NAME)
      ? key.slice(0, -SCHOOL_NAME.length)
      : `${key}_`;
  const fields = record as Partial<Record<string, string>>;
  const entries: [string, string][] = [];
  // A school record yields its name.
  if ('name' in record) entries.push([key, record.name]);
  if ('ceeb' in record && codeKey) entries.push([codeKey, record.ceeb]);
  for (const field of RECORD_FIELDS) {
    const value = fields[field];
    const target = `${prefix}${field}`;
    if (value !== undefined && isKnownAnswerKey(target)) entries.push([target, value]);
  }
  return entries;
}

/**
 * The answers a picked place fills in an address block. What the applicant typed is never
 * erased: only values the record knows are written, and the street lines only while empty.
 */
export function mapAddressRecord(
  prefix: string,
  record: AddressRecord,
  answers: Answers,
): [string, string][] {
  const fields = record as Partial<Record<string, string>>;
  const entries: [string, string][] = [];
  for (const field of RECORD_FIELDS) {
    const value = fields[field]?.trim() ?? '';
    const target = `${prefix}${field}`;
    if (value === '' || !isKnownAnswerKey(target)) continue;
    const isLine = (ADDRESS_LINES as readonly string[]).includes(field);
    if (isLine && isAnswered(answers[target])) continue;
    entries.push([target, value]);
  }
  return entries;
}

/**
 * The address block's key prefix when `key` is its city or ZIP and the block's first line is an
 * address lookup (the permanent and mailing addresses); undefined otherwise.
 */
export function findPlaceLookupPrefix(key: string): string | undefined {
  for (const field of PLACE_FIELDS) {
    if (!key.endsWith(field)) continue;
    const prefix = key.slice(0, -field.length);
    const line = findQuestionEntry(APPLICATION_DEFINITION, `${prefix}${ADDRESS_LINE}`)?.question;
    if (line?.key === `${prefix}${ADDRESS_LINE}` && line.category === 'address') return prefix;
  }
  return undefined;
}

/** School search (the lookup widget); free text is accepted as typed. */
export function AutocompleteField(props: InputProps) {
  const { question } = props;
  const category = question.category ?? 'hs_ceeb';
  // A street line is typed freely (and filled by the browser's own address autofill); the
  // address lookup completes the place from the City and ZIP fields instead.
  if (category === 'address') return <AddressLineField {...props} />;
  return <SchoolLookupField {...props} category={category} />;
}

/**
 * The lookup widget shows its text in its own combobox (controlled), so it watches its answer in
 * the form; it re-renders as it is typed into, and nothing else does.
 */
function SchoolLookupField(
  props: InputProps & { category: NonNullable<InputProps['question']['category']> },
) {
  const { question, category } = props;
  const value = useAnswerValue(question.key);
  return (
    // The wrapper carries the question's id for summary links, and saves when focus leaves.
    <div id={question.key} onBlur={props.onCommit}>
      <LookupAutocomplete
        category={category}
        maxWidth="36rem"
        label={props.label}
        value={value}
        {...(props.help ? { description: props.help } : {})}
        {...(props.error ? { error: props.error } : {})}
        required={props.required}
        maxLength={limitForRole(question, 'value', getPartner())}
        onChange={(text) => props.onChange(question.key, text, 'typing')}
        onSelect={({ label, record }) => {
          props.onChange(question.key, label, 'typing');
          if (record) {
            props.onFill(mapLookupRecord(question.key, question.codeKey, record), 'typing');
          }
          props.onCommit();
        }}
      />
    </div>
  );
}

function AddressLineField(props: InputProps) {
  return (
    <TextInput
      key={props.fieldKey}
      id={props.id}
      label={props.label}
      description={props.help}
      error={props.error}
      withAsterisk={props.required}
      {...props.bind(props.question.key, 'typing')}
      onBlur={props.onCommit}
      maw="36rem"
      maxLength={limitForRole(props.question, 'value', getPartner())}
      autoComplete="address-line1"
    />
  );
}

/** A text question; an address block's City and ZIP search places and complete the block. */
export function TextOrPlaceField(props: InputProps) {
  const prefix = findPlaceLookupPrefix(props.question.key);
  if (prefix === undefined) return <TextField {...props} />;
  return <PlaceLookupField {...props} prefix={prefix} />;
}

/** A City or ZIP field: the lookup widget (controlled, so it watches its answer in the form). */
function PlaceLookupField(props: InputProps & { prefix: string }) {
  const { question, prefix } = props;
  const value = useAnswerValue(question.key);
  return (
    // The input carries the question's id, as a plain text field does; the wrapper saves on blur.
    <div onBlur={props.onCommit}>
      <LookupAutocomplete
        id={props.id}
        maxWidth={widthForLimit(limitForRole(question, 'value', getPartner()))}
        category="address"
        label={props.label}
        value={value}
        {...(props.help ? { description: props.help } : {})}
        {...(props.error ? { error: props.error } : {})}
        required={props.required}
        maxLength={limitForRole(question, 'value', getPartner())}
        keepTypedOnSelect
        onChange={(text) => props.onChange(question.key, text, 'typing')}
        onSelect={({ record }) => {
          if (record && !('ceeb' in record)) {
            props.onFill(mapAddressRecord(prefix, record, props.readAnswers()), 'typing');
          }
          props.onCommit();
        }}
      />
    </div>
  );
}
