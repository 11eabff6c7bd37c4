// buildAnswerView: saved answers → the plain view model both renderers lay out. Every decision
// about what shows and how it reads is made here, with packages/form's engine, so the print view
// and the PDF cannot disagree with each other or with the form on screen.
import {
  APPLICANT_NAME_KEYS,
  clearHiddenAnswers,
  companionKey,
  compileDefinition,
  countRepeatBlocks,
  describeOption,
  formatCheckbox,
  formatPhone,
  isAnswered,
  isChecked,
  isEntryVisible,
  isIdentifierQuestion,
  isPageVisible,
  isSectionVisible,
  MONTHS,
  parseIsoDate,
  resolveText,
  selectOptionSource,
  type Answers,
  type ApplicationDefinition,
  type OptionContext,
  type OptionSource,
  type PartnerConfig,
  type Question,
  type QuestionEntry,
  type Section,
  type TabGroup,
  type VisibilityContext,
} from '@admissions/form';
import type {
  AnswerPageView,
  AnswerRow,
  AnswerSectionView,
  AnswerView,
  DocumentView,
} from './view-model';
import { stripBidiControls } from './display-text';
import { formatDocumentSize } from './document-size';

export type AnswerViewAudience = 'applicant' | 'service';

/**
 * What the view needs of a converted document (docs/data-model.md "document answer"). Stated here
 * rather than taken from @admissions/api-contract, which sits above this package.
 */
export interface DocumentRecord {
  file_name: string;
  file_size: number;
}

export interface AnswerViewExtras {
  partner: PartnerConfig;
  /** Stored add-another counts by button id (docs/data-model.md); the definition's default otherwise. */
  addAnother?: Readonly<Record<string, number>>;
  /** Stored tab choices by tab group id; see resolveChosenTabs for the fallback. */
  tabs?: Readonly<Record<string, string>>;
  /** Converted documents by file question key (`*_doc`). */
  documents?: Readonly<Record<string, DocumentRecord>>;
  /** 'service' applies the service rule (README): optional groups show answered rows only. */
  audience?: AnswerViewAudience;
  /**
   * The applicant's own copy (their PDF): what they answered, so optional groups and later
   * add-another blocks with nothing answered are left out, and the chosen tab's label is not
   * printed (the applicant picked it; above their answer it reads as a stray heading).
   */
  applicantCopy?: boolean;
}

/** The value a file question holds once its document is converted (docs/data-model.md). */
const DOCUMENT_ANSWERED = 'ANSWERED';

const SCHOOL_CODE_NAMES: Partial<Record<NonNullable<Question['category']>, string>> = {
  hs_ceeb: 'CEEB',
  college_ceeb: 'CEEB',
};

// Per definition, computed once: the entries of each section and whether a section is optional.
interface SectionPlan {
  entries: readonly QuestionEntry[];
  /** No question (nor tab group) in it is ever required: the service rule applies to it. */
  optional: boolean;
  tabGroups: readonly TabGroup[];
}

const plans = new WeakMap<ApplicationDefinition, ReadonlyMap<Section, SectionPlan>>();

function planSections(definition: ApplicationDefinition): ReadonlyMap<Section, SectionPlan> {
  const cached = plans.get(definition);
  if (cached) return cached;
  const { entries } = compileDefinition(definition);
  const bySection = new Map<Section, QuestionEntry[]>();
  for (const entry of entries) {
    const list = bySection.get(entry.section) ?? [];
    list.push(entry);
    bySection.set(entry.section, list);
  }
  const plan = new Map<Section, SectionPlan>();
  for (const [section, list] of bySection) {
    const tabGroups = [
      ...new Set(list.flatMap((e) => (e.tabGroup ? [e.tabGroup] : []))),
    ] as TabGroup[];
    const required =
      list.some((e) => e.question.required !== undefined) ||
      tabGroups.some((g) => g.required !== undefined);
    plan.set(section, { entries: list, optional: !required, tabGroups });
  }
  plans.set(definition, plan);
  return plan;
}

/**
 * The tab shown for each tab group, as the form shows it (tab-group-field.tsx): the stored choice,
 * else the tab that already holds an answer, else the group's default tab.
 */
export function resolveChosenTabs(
  definition: ApplicationDefinition,
  answers: Answers,
  stored: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const chosen: Record<string, string> = {};
  for (const group of definition.tabGroups) {
    const saved = stored[group.id];
    const valid = saved !== undefined && group.tabs.some((t) => t.id === saved) ? saved : undefined;
    chosen[group.id] =
      valid ?? group.tabs.find((t) => isAnswered(answers[t.questionKey]))?.id ?? group.defaultTab;
  }
  return chosen;
}

/**
 * Every letter and digit but the last four replaced by `*`, separators kept:
 * "123-45-6789" → "***-**-6789". A value with four or fewer is masked whole. Idempotent (a `*`
 * counts as a hidden character), because GET /service/tmp-pdf sends these values already masked.
 */
export function maskIdentifier(value: string): string {
  const chars = [...value.trim()];
  const alnum = chars.filter((c) => /[\p{L}\p{N}*]/u.test(c)).length;
  let keep = alnum > 4 ? 4 : 0;
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    if (!/[\p{L}\p{N}]/u.test(chars[i] ?? '')) continue;
    if (keep > 0) keep -= 1;
    else chars[i] = '*';
  }
  return chars.join('');
}

const MONTH_LABELS: ReadonlyMap<string, string> = new Map(MONTHS.map((m) => [m.value, m.label]));

/** "2008-03-02" → "March 2, 2008"; anything that is not a calendar date is shown as typed. */
export function formatAnswerDate(value: string): string {
  const date = parseIsoDate(value.trim());
  if (!date) return value;
  return `${MONTH_LABELS.get(String(date.month)) ?? date.month} ${date.day}, ${date.year}`;
}

/** The applicant's name as the cover and the print view's heading show it. */
export function formatApplicantName(answers: Answers): string {
  return [APPLICANT_NAME_KEYS.first, APPLICANT_NAME_KEYS.middle, APPLICANT_NAME_KEYS.last]
    .map((key) => stripBidiControls(answers[key] ?? '').trim())
    .filter((part) => part !== '')
    .join(' ');
}

function describeChoice(
  source: OptionSource | undefined,
  value: string,
  companion: string | undefined,
  context: OptionContext,
): string {
  if (!isAnswered(value)) return '';
  if (source) {
    const active = selectOptionSource(source, context.answers);
    // Year lists label each year with itself; no need to build the list.
    if (active?.kind === 'years') return value;
    const label = describeOption(source, value, context);
    if (label !== '') return label;
  }
  // A code no longer in the list: the label saved beside it, else the code itself.
  return companion !== undefined && isAnswered(companion) ? companion : value;
}

interface RowContext {
  answers: Answers;
  options: OptionContext;
  partner: PartnerConfig;
  documents: Readonly<Record<string, DocumentRecord>>;
}

/** One question's row, or undefined for a question that is never printed (passwords). */
function buildRow(
  question: Question,
  ctx: RowContext,
): { row: AnswerRow; answered: boolean; document?: DocumentRecord } | undefined {
  const { answers } = ctx;
  const raw = answers[question.key] ?? '';
  const label = resolveText(question.label, ctx.partner);
  const row = (value: string, kind: AnswerRow['kind'] = 'short') => ({
    row: { key: question.key, label, value, kind },
    answered: value !== '',
  });
  switch (question.type) {
    case 'password':
      return undefined;
    case 'checkbox':
      return {
        row: { key: question.key, label, value: formatCheckbox(raw), kind: 'check' },
        answered: isChecked(raw),
      };
    case 'textarea':
      return row(isAnswered(raw) ? raw : '', 'long');
    case 'date':
      return row(isAnswered(raw) ? formatAnswerDate(raw) : '');
    case 'phone': {
      const digits = raw.replace(/\D/g, '');
      return row(!isAnswered(raw) ? '' : digits.length === 10 ? formatPhone(raw) : raw.trim());
    }
    case 'ssn':
      return row(isAnswered(raw) ? maskIdentifier(raw) : '');
    case 'select':
    case 'radio':
      return row(
        describeChoice(question.options, raw, answers[companionKey(question.key)], ctx.options),
      );
    case 'month-year': {
      const month = describeChoice(
        question.options,
        raw,
        answers[companionKey(question.key)],
        ctx.options,
      );
      const yearKey = question.yearKey;
      const year = yearKey
        ? describeChoice(
            question.yearOptions,
            answers[yearKey] ?? '',
            answers[companionKey(yearKey)],
            ctx.options,
          )
        : '';
      return row([month, year].filter((part) => part !== '').join(' '));
    }
    case 'autocomplete': {
      if (!isAnswered(raw)) return row('');
      const code = question.codeKey ? (answers[question.codeKey] ?? '').trim() : '';
      const codeName = question.category ? SCHOOL_CODE_NAMES[question.category] : undefined;
      if (code === '') return row(raw.trim());
      return row(`${raw.trim()} (${codeName ? `${codeName} ${code}` : code})`);
    }
    case 'file': {
      const document = raw === DOCUMENT_ANSWERED ? ctx.documents[question.key] : undefined;
      if (!document) {
        return { row: { key: question.key, label, value: '', kind: 'document' }, answered: false };
      }
      return {
        row: {
          key: question.key,
          label,
          value: `${stripBidiControls(document.file_name)} (${formatDocumentSize(document.file_size)})`,
          kind: 'document',
        },
        answered: true,
        document,
      };
    }
    case 'text':
      if (isIdentifierQuestion(question)) return row(isAnswered(raw) ? maskIdentifier(raw) : '');
      return row(isAnswered(raw) ? raw.trim() : '');
  }
}

// Stored answers come from JSON: anything but a string is not an answer (as validateAnswers reads it).
// Bidi controls go here, once, so no displayed value carries them.
function keepStrings(answers: Answers): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const key of Object.keys(answers)) {
    const value: unknown = answers[key];
    if (typeof value === 'string') clean[key] = stripBidiControls(value);
  }
  return clean;
}

/**
 * The view model of an application: the pages, sections and questions the form shows for these
 * answers, in the same order, each answer formatted for reading (README "The view model").
 */
export function buildAnswerView(
  definition: ApplicationDefinition,
  answers: Answers,
  extras: AnswerViewExtras,
): AnswerView {
  const { partner, audience = 'applicant' } = extras;
  const documents = extras.documents ?? {};
  const saved = keepStrings(answers);
  const tabs = resolveChosenTabs(definition, saved, extras.tabs);
  const context: VisibilityContext = { tabs };
  // Hidden answers appear nowhere: not as rows, and not through the conditions they feed.
  const effective = clearHiddenAnswers(definition, saved, context);
  const plan = planSections(definition);
  const ctx: RowContext = {
    answers: effective,
    options: { answers: effective, now: new Date(), partner },
    partner,
    documents,
  };
  const counts = new Map(
    definition.repeatGroups.map((group) => [
      group.id,
      countRepeatBlocks(group, definition, effective, extras.addAnother?.[group.id]),
    ]),
  );
  const groupTitles = new Map(definition.repeatGroups.map((group) => [group.id, group.title]));
  const tabLabels = new Map(
    definition.tabGroups.map((group) => [
      group.id,
      {
        group: resolveText(group.label, partner),
        tab: group.tabs.find((t) => t.id === tabs[group.id])?.label ?? '',
      },
    ]),
  );

  const pages: AnswerPageView[] = [];
  const documentViews: DocumentView[] = [];
  for (const page of definition.pages) {
    if (!isPageVisible(page, effective)) continue;
    const sections: AnswerSectionView[] = [];
    for (const section of page.sections) {
      const repeat = section.repeat;
      if (repeat && repeat.index > (counts.get(repeat.group) ?? 0)) continue;
      if (!isSectionVisible(page, section, effective)) continue;
      const sectionPlan = plan.get(section);
      if (!sectionPlan) continue;
      // The service rule: in optional groups and later add-another blocks, answered rows only.
      const answeredOnly =
        audience === 'service' &&
        (sectionPlan.optional || (repeat !== undefined && repeat.index > 1));
      // The applicant's copy shows what they answered: any group or block with nothing in it
      // (Parent 1 or 2, Relative 1–4, Ethnicity) is left out rather than printed as bare labels.
      // Required groups always hold an answer once submitted, so only optional content goes.
      const skipWhenEmpty = extras.applicantCopy === true;
      const withTabs = extras.applicantCopy !== true;
      let answeredRows = 0;
      const rows: AnswerRow[] = [];
      const shownTabGroups = new Set<string>();
      for (const entry of sectionPlan.entries) {
        if (!isEntryVisible(entry, effective, context)) continue;
        const built = buildRow(entry.question, ctx);
        if (!built || (answeredOnly && !built.answered)) continue;
        if (built.answered) answeredRows++;
        const group = withTabs ? entry.question.tab?.group : undefined;
        const labels = group ? tabLabels.get(group) : undefined;
        if (group && labels) {
          shownTabGroups.add(group);
          rows.push({ ...built.row, tab: labels });
        } else {
          rows.push(built.row);
        }
        if (built.document) {
          documentViews.push({
            key: entry.question.key,
            label: built.row.label,
            fileName: stripBidiControls(built.document.file_name),
            fileSize: built.document.file_size,
          });
        }
      }
      if (rows.length === 0 || (skipWhenEmpty && answeredRows === 0)) continue;
      const onlyGroup = shownTabGroups.size === 1 ? [...shownTabGroups][0] : undefined;
      const tab = onlyGroup ? tabLabels.get(onlyGroup)?.tab : undefined;
      sections.push({
        id: section.id,
        title: resolveText(section.title, partner),
        ...(repeat
          ? {
              block: {
                group: repeat.group,
                index: repeat.index,
                title: resolveText(groupTitles.get(repeat.group) ?? '', partner),
              },
            }
          : {}),
        ...(tab ? { tab } : {}),
        rows,
      });
    }
    if (sections.length > 0) pages.push({ id: page.id, title: page.title, sections });
  }
  return { pages, documents: documentViews };
}

/** The label/value pairs of a view in reading order: what both renderers show, row by row. */
export function collectAnswerPairs(view: AnswerView): { label: string; value: string }[] {
  return view.pages.flatMap((page) =>
    page.sections.flatMap((section) =>
      section.rows.map((row) => ({ label: row.label, value: row.value })),
    ),
  );
}
