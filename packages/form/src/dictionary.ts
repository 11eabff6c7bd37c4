// The data dictionary for the offices and systems that read the answers, built straight from the
// definition. The CLI (`npm run cli -- dictionary`) prints formatDictionary(buildDataDictionary()).
import { compileDefinition } from './compile';
import { describeCondition } from './conditions';
import type { AnswerKeyRole } from './answer-keys';
import { limitForRole } from './answer-keys';
import { NAMED_LISTS, resolveText } from './options';
import type { PartnerConfig } from './partner';
import type {
  ApplicationDefinition,
  Condition,
  IndependentOptionSource,
  Option,
  OptionSource,
  Question,
} from './types';

export interface DictionaryRow {
  page: string;
  pageTitle: string;
  section: string;
  sectionTitle: string;
  key: string;
  /** value, companion (label of the chosen option), year, year-companion or code. */
  role: AnswerKeyRole;
  /** The question's key, for companions, years and codes. */
  questionKey: string;
  label: string;
  type: string;
  maxLength: number;
  /** When the question shows, in words; '' when always. */
  condition: string;
  required: string;
  rules: string[];
  options: Option[];
  /** For options computed at run time (years) or chosen by another answer. */
  optionsNote: string;
}

function describeSource(
  source: IndependentOptionSource,
  partner: PartnerConfig,
): { options: Option[]; note: string } {
  switch (source.kind) {
    case 'static':
      return { options: [...source.options], note: '' };
    case 'list':
      return {
        options: NAMED_LISTS[source.list].filter((o) => o.value !== ''),
        note: `list ${source.list}`,
      };
    case 'partner':
      return { options: [...partner.entryTerms], note: 'set in the partner configuration' };
    case 'years': {
      const from = source.startOffset
        ? `the current year ${source.startOffset > 0 ? '+' : '-'} ${Math.abs(source.startOffset)}`
        : 'the current year';
      return {
        options: [],
        note: `${source.count} years ${source.direction === 'past' ? 'back' : 'forward'} from ${from}`,
      };
    }
  }
}

function describeOptions(
  source: OptionSource | undefined,
  partner: PartnerConfig,
): { options: Option[]; note: string } {
  if (!source) return { options: [], note: '' };
  if (source.kind !== 'dependent') return describeSource(source, partner);
  const options: Option[] = [];
  const notes: string[] = [];
  for (const [value, sub] of Object.entries(source.byValue)) {
    const described = describeSource(sub, partner);
    options.push(...described.options);
    notes.push(
      `${source.key} = ${value}: ${described.note || `${described.options.length} options`}`,
    );
  }
  return { options, note: `depends on ${source.key} (${notes.join('; ')})` };
}

function describeRules(question: Question): string[] {
  const rules: string[] = [];
  if (question.format) rules.push(`format ${question.format.kind}: "${question.format.message}"`);
  if (question.minLength) {
    rules.push(
      `at least ${question.minLength.value} characters${question.minLength.when ? ` when ${describeCondition(question.minLength.when)}` : ''}: "${question.minLength.message}"`,
    );
  }
  const date = question.date;
  if (date) {
    rules.push(`valid date YYYY-MM-DD: "${date.invalidMessage}"`);
    if (date.maxYearsAgo !== undefined)
      rules.push(`not more than ${date.maxYearsAgo} years ago: "${date.tooOldMessage ?? ''}"`);
    if (date.minAgeYears !== undefined)
      rules.push(
        `at least ${date.minAgeYears} years old: "${(date.tooYoungMessage ?? '').replace('{n}', String(date.minAgeYears))}"`,
      );
    if (date.yearWindow)
      rules.push(
        `year between the current year - ${date.yearWindow.before} and + ${date.yearWindow.after}`,
      );
  }
  if (question.usesPartnerLimit) rules.push('length limit from the partner configuration');
  if (question.tab) rules.push(`tab ${question.tab.tab} of tab group ${question.tab.group}`);
  return rules;
}

function joinConditions(conditions: readonly Condition[]): string {
  if (conditions.length === 0) return '';
  if (conditions.length === 1 && conditions[0]) return describeCondition(conditions[0]);
  return conditions.map((c) => `(${describeCondition(c)})`).join(' and ');
}

export function buildDataDictionary(
  definition: ApplicationDefinition,
  partner: PartnerConfig,
): DictionaryRow[] {
  const rows: DictionaryRow[] = [];
  for (const entry of compileDefinition(definition).entries) {
    const { page, section, question } = entry;
    const label = resolveText(question.label, partner);
    const condition = joinConditions(entry.conditions);
    const required = question.required
      ? `${question.required.when ? `when ${describeCondition(question.required.when)}` : 'yes'}: "${question.required.message ?? label}"`
      : '';
    for (const owned of entry.owned) {
      const isValue = owned.role === 'value';
      const source =
        owned.role === 'value'
          ? question.options
          : owned.role === 'year'
            ? question.yearOptions
            : undefined;
      const { options, note } = describeOptions(source, partner);
      rows.push({
        page: page.id,
        pageTitle: page.title,
        section: section.id,
        sectionTitle: resolveText(section.title, partner),
        key: owned.key,
        role: owned.role,
        questionKey: question.key,
        label: isValue ? label : `${label} (${owned.role.replace('-', ' ')})`,
        type: isValue ? question.type : owned.role === 'year' ? 'year' : owned.role,
        maxLength: limitForRole(question, owned.role, partner),
        condition,
        required: isValue ? required : '',
        rules: isValue ? describeRules(question) : [],
        options,
        optionsNote: note,
      });
    }
  }
  return rows;
}

const CSV_COLUMNS = [
  'page',
  'section',
  'key',
  'role',
  'questionKey',
  'label',
  'type',
  'maxLength',
  'condition',
  'required',
  'rules',
  'options',
  'optionsNote',
] as const satisfies readonly (keyof DictionaryRow)[];

/** RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function quoteCsvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function cellOf(row: DictionaryRow, column: (typeof CSV_COLUMNS)[number]): string {
  const value = row[column];
  if (column === 'options') return row.options.map((o) => `${o.value}=${o.label}`).join('; ');
  if (Array.isArray(value)) return value.join('; ');
  return String(value);
}

export type DictionaryFormat = 'json' | 'csv';

/** JSON (an array of rows) or RFC 4180 CSV with a header line; both end with a newline. */
export function formatDictionary(rows: readonly DictionaryRow[], format: DictionaryFormat): string {
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`;
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows)
    lines.push(CSV_COLUMNS.map((c) => quoteCsvField(cellOf(row, c))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
