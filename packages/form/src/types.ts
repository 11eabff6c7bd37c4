// The shape of the application definition. Everything a renderer, the API, the print view or the
// data dictionary needs to know about a question lives in these types, as plain serialisable data.

export type PageId = 'about' | 'education' | 'final-steps';

export type InputType =
  | 'text'
  | 'textarea'
  | 'date'
  | 'password'
  | 'ssn'
  | 'select'
  | 'radio'
  | 'checkbox'
  | 'phone'
  | 'month-year'
  | 'autocomplete'
  | 'file';

/** Student answers: a flat map of answer key to string; the empty answer is ''. */
export type Answers = Readonly<Record<string, string>>;

/** Validation result: answer key to its messages, duplicates removed. */
export type ValidationErrors = Record<string, string[]>;

export type Condition =
  | { op: 'equals' | 'notEquals'; key: string; value: string }
  | { op: 'lt' | 'lte' | 'gt' | 'gte'; key: string; value: number | string }
  | { op: 'answered' | 'notAnswered'; key: string }
  | { op: 'in' | 'notIn'; key: string; values: readonly string[] }
  | { op: 'and' | 'or'; conditions: readonly Condition[] }
  | { op: 'not'; condition: Condition };

export type ConditionOperator = Condition['op'];

export interface Option {
  value: string;
  label: string;
}

export type OptionListName =
  'countries' | 'countriesWithoutUsa' | 'usStates' | 'caProvinces' | 'months' | 'languages';

/** Option sources that do not depend on another answer. */
export type IndependentOptionSource =
  | { kind: 'static'; options: readonly Option[] }
  | { kind: 'list'; list: OptionListName }
  /** Years counting from the current year plus `startOffset` (default 0), backwards or forwards. */
  | { kind: 'years'; direction: 'past' | 'future'; count: number; startOffset?: number }
  /** Options the institution configures (PartnerConfig.entryTerms). */
  | { kind: 'partner'; list: 'entryTerms' };

/**
 * A dependent select takes its options from the value of another answer; it shows only while that
 * answer has a list, and is cleared (with its companion) whenever that answer changes.
 */
export interface DependentOptionSource {
  kind: 'dependent';
  key: string;
  byValue: Readonly<Record<string, IndependentOptionSource>>;
}

export type OptionSource = IndependentOptionSource | DependentOptionSource;

export interface RequiredRule {
  /** Required only while this holds (the question must also be visible). */
  when?: Condition;
  /** Defaults to the question's label (docs/validation.md: "the label serves as the message"). */
  message?: string;
}

export interface FormatRule {
  kind: 'phone' | 'email' | 'ssn';
  message: string;
}

export interface MinLengthRule {
  value: number;
  when?: Condition;
  message: string;
}

export interface DateRule {
  invalidMessage: string;
  /** Oldest accepted date, in whole years before today; older is `tooOldMessage`. */
  maxYearsAgo?: number;
  tooOldMessage?: string;
  /** Youngest accepted age in whole years; younger is `tooYoungMessage` with `{n}` filled. */
  minAgeYears?: number;
  tooYoungMessage?: string;
  /** Accepted calendar years relative to the current one, inclusive. */
  yearWindow?: { before: number; after: number };
}

export type AutocompleteCategory = 'college_ceeb' | 'hs_ceeb' | 'address';

export interface Question {
  key: string;
  type: InputType;
  /** May contain {schoolName} or {shortSchoolName}; resolve with resolveText(). */
  label: string;
  help?: string;
  options?: OptionSource;
  /** month-year: `key` holds the month, `yearKey` the year. */
  yearKey?: string;
  yearOptions?: IndependentOptionSource;
  /** autocomplete: where the lookup's id (for schools, the CEEB code) is stored. */
  codeKey?: string;
  category?: AutocompleteCategory;
  /** Overrides the type's default limit (text 45, text area 1500). */
  maxLength?: number;
  /** Essays use the partner's text-area limit (docs/limits.md: 7000) instead of the default 1500. */
  usesPartnerLimit?: boolean;
  showWhen?: Condition;
  required?: RequiredRule;
  format?: FormatRule;
  minLength?: MinLengthRule;
  date?: DateRule;
  /** Membership of a document-or-essay tab group. */
  tab?: { group: string; tab: string };
  /**
   * Both kinds are never carried in navigation state or prefill links and never logged.
   * 'identifier' (SSN, A-Number) is also sealed at rest and masked wherever staff see it;
   * 'private' (a disclosure in the applicant's words) is shown to staff in full.
   */
  sensitive?: 'identifier' | 'private';
  /** Refused in prefill links although not sensitive (a disciplinary yes/no reveals as much). */
  neverPrefilled?: boolean;
  /** The applicant's own name: the cover, the staff list and the PDF file names use these keys. */
  applicantName?: 'first' | 'middle' | 'last';
}

export interface Section {
  id: string;
  title: string;
  help?: string;
  showWhen?: Condition;
  /** Block `index` (1-based) of an add-another group. */
  repeat?: { group: string; index: number };
  questions: readonly Question[];
}

export interface Page {
  id: PageId;
  step: number;
  title: string;
  showWhen?: Condition;
  sections: readonly Section[];
}

/**
 * An add-another button. The answer keys are fixed per block (parent_, parent_2_, ...), so the
 * number of blocks is bounded by the keys that exist; `max` never exceeds that, nor 10.
 */
export interface RepeatGroup {
  id: string;
  /**
   * What the blocks are together ("Parents/Guardians"): the heading the print view and the PDF
   * put above the group's blocks, each block a heading one level down. May name {shortSchoolName}.
   */
  title: string;
  buttonLabel: string;
  defaultCount: number;
  max: number;
  /** Key prefix of each block, block 1 first. */
  prefixes: readonly string[];
}

export interface Tab {
  id: string;
  label: string;
  questionKey: string;
  /** Answers cleared when the applicant switches to this tab (the other tab's work). */
  clears: readonly string[];
}

export interface TabGroup {
  id: string;
  label: string;
  defaultTab: string;
  tabs: readonly Tab[];
  /** When set, one of the tabs must be answered while the group is visible. */
  required?: { message: string };
}

export interface ApplicationDefinition {
  pages: readonly Page[];
  repeatGroups: readonly RepeatGroup[];
  tabGroups: readonly TabGroup[];
}

/** What the engine may know beyond the answers. */
export interface VisibilityContext {
  /**
   * Chosen tab per tab group. Only groups present here hide their other tab; without an entry both
   * tabs count as visible, so nothing an applicant typed is cleared on a guess.
   */
  tabs?: Readonly<Record<string, string>>;
}
