// What shows, given the answers. Hidden means not required, not validated and cleared
// (ARCHITECTURE.md). Note the direction: docs/behaviour.md says a section "is hidden when its condition holds"; here every
// condition is written as `showWhen`, the condition under which it shows, which reads plainly.
import { listOwnedAnswerKeys } from './answer-keys';
import { compileDefinition, type QuestionEntry } from './compile';
import { evaluateCondition, isAnswered } from './conditions';
import type {
  Answers,
  ApplicationDefinition,
  Page,
  RepeatGroup,
  Section,
  TabGroup,
  VisibilityContext,
} from './types';

export function isPageVisible(page: Page, answers: Answers): boolean {
  return !page.showWhen || evaluateCondition(page.showWhen, answers);
}

export function isSectionVisible(page: Page, section: Section, answers: Answers): boolean {
  return (
    isPageVisible(page, answers) &&
    (!section.showWhen || evaluateCondition(section.showWhen, answers))
  );
}

function isOnChosenTab(entry: QuestionEntry, context: VisibilityContext): boolean {
  const tab = entry.question.tab;
  if (!tab) return true;
  const chosen = context.tabs?.[tab.group];
  return chosen === undefined || chosen === tab.tab;
}

export function isEntryVisible(
  entry: QuestionEntry,
  answers: Answers,
  context: VisibilityContext = {},
): boolean {
  for (const condition of entry.conditions) {
    if (!evaluateCondition(condition, answers)) return false;
  }
  return isOnChosenTab(entry, context);
}

/**
 * Answers with every hidden question's keys (value, `_desc` companions, month-year year, code)
 * set to ''. Repeats until stable, because clearing one answer can hide another question (for
 * example f1_visa_explain once f1_visa is cleared). Keys that were absent stay absent.
 */
export function clearHiddenAnswers(
  definition: ApplicationDefinition,
  answers: Answers,
  context: VisibilityContext = {},
): Record<string, string> {
  const { entries } = compileDefinition(definition);
  const current: Record<string, string> = { ...answers };
  for (let pass = 0; pass <= entries.length; pass += 1) {
    let changed = false;
    for (const entry of entries) {
      if (isEntryVisible(entry, current, context)) continue;
      for (const { key } of entry.owned) {
        if (Object.hasOwn(current, key) && current[key] !== '') {
          current[key] = '';
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return current;
}

/** The keys clearHiddenAnswers would blank: what to send to the server to clear them. */
export function listHiddenAnswerKeys(
  definition: ApplicationDefinition,
  answers: Answers,
  context: VisibilityContext = {},
): string[] {
  const cleared = clearHiddenAnswers(definition, answers, context);
  return Object.keys(cleared).filter((key) => cleared[key] === '' && isAnswered(answers[key]));
}

/** The questions that show for these answers, in page order (hidden answers already cleared). */
export function listVisibleQuestions(
  definition: ApplicationDefinition,
  answers: Answers,
  context: VisibilityContext = {},
): QuestionEntry[] {
  const effective = clearHiddenAnswers(definition, answers, context);
  return compileDefinition(definition).entries.filter((e) => isEntryVisible(e, effective, context));
}

/**
 * The keys of the questions that show, computed once: a renderer asks this per render rather
 * than calling isQuestionVisible per question (each call clears hidden answers afresh).
 */
export function collectVisibleQuestionKeys(
  definition: ApplicationDefinition,
  answers: Answers,
  context: VisibilityContext = {},
): ReadonlySet<string> {
  return new Set(listVisibleQuestions(definition, answers, context).map((e) => e.question.key));
}

export function isQuestionVisible(
  definition: ApplicationDefinition,
  key: string,
  answers: Answers,
  context: VisibilityContext = {},
): boolean {
  const found = compileDefinition(definition).byAnswerKey.get(key);
  if (!found) return false;
  const effective = clearHiddenAnswers(definition, answers, context);
  return isEntryVisible(found.entry, effective, context);
}

/** docs/behaviour.md: when a controlling answer changes, each dependent select and its `_desc` clear. */
export function listDependentAnswerKeys(definition: ApplicationDefinition, key: string): string[] {
  const dependents = compileDefinition(definition).dependents.get(key) ?? [];
  return dependents.flatMap((entry) => entry.owned.map((owned) => owned.key));
}

/** The answers a section clears when it hides: what its questions own. */
export function listSectionAnswerKeys(section: Section): string[] {
  return section.questions.flatMap((q) => listOwnedAnswerKeys(q).map((owned) => owned.key));
}

export function findTabGroup(definition: ApplicationDefinition, id: string): TabGroup | undefined {
  return definition.tabGroups.find((g) => g.id === id);
}

/** The answers to clear when the applicant switches tab group `groupId` to `tabId`. */
export function listTabAnswersToClear(
  definition: ApplicationDefinition,
  groupId: string,
  tabId: string,
): string[] {
  return (
    findTabGroup(definition, groupId)
      ?.tabs.find((t) => t.id === tabId)
      ?.clears.slice() ?? []
  );
}

/**
 * How many blocks of an add-another group to show: the stored count (default 1), raised to cover
 * any later block that already holds an answer or an error, and never above the group's maximum.
 */
export function countRepeatBlocks(
  group: RepeatGroup,
  definition: ApplicationDefinition,
  answers: Answers,
  stored?: number,
  errorKeys: readonly string[] = [],
): number {
  let count = Math.max(stored ?? group.defaultCount, group.defaultCount);
  for (const page of definition.pages) {
    for (const section of page.sections) {
      if (section.repeat?.group !== group.id || section.repeat.index <= count) continue;
      const keys = listSectionAnswerKeys(section);
      if (keys.some((k) => isAnswered(answers[k]) || errorKeys.includes(k))) {
        count = section.repeat.index;
      }
    }
  }
  return Math.min(count, group.max);
}
