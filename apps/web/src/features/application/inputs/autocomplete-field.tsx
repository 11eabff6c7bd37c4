import type { LookupRecord } from '@admissions/api-contract';
import { isKnownAnswerKey, limitForRole } from '@admissions/form';
import { LookupAutocomplete } from '../../../shared/ui/lookup-autocomplete';
import type { InputProps } from './input-props';
import { getPartner } from '../../../shared/lib/partner';

const ADDRESS_LINE = 'address_line_1';
const SCHOOL_NAME = 'name';

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
  // SPEC §3: a school record yields its name, an address record its first line.
  if ('name' in record) entries.push([key, record.name]);
  if ('ceeb' in record && codeKey) entries.push([codeKey, record.ceeb]);
  for (const field of RECORD_FIELDS) {
    const value = fields[field];
    const target = `${prefix}${field}`;
    if (value !== undefined && isKnownAnswerKey(target)) entries.push([target, value]);
  }
  return entries;
}

/** School and address search (the lookup widget); free text is accepted as typed. */
export function AutocompleteField(props: InputProps) {
  const { question } = props;
  const category = question.category ?? 'hs_ceeb';
  return (
    // The wrapper carries the question's id for summary links, and saves when focus leaves.
    <div id={question.key} onBlur={props.onCommit}>
      <LookupAutocomplete
        category={category}
        label={props.label}
        value={props.value}
        {...(props.help ? { description: props.help } : {})}
        {...(props.error ? { error: props.error } : {})}
        required={props.required}
        maxLength={limitForRole(question, 'value', getPartner())}
        onChange={(text) => props.onChange(question.key, text, 'typing')}
        onSelect={({ label, record }) => {
          props.onChange(question.key, label, 'typing');
          if (!record) {
            props.onCommit();
            return;
          }
          for (const [key, value] of mapLookupRecord(question.key, question.codeKey, record)) {
            props.onChange(key, value, 'typing');
          }
          props.onCommit();
        }}
      />
    </div>
  );
}
