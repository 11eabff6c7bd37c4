// A flat, indexed view of a definition, built once per definition object and cached, so the
// engine's per-keystroke work is a walk over an array rather than a tree search.
import { listOwnedAnswerKeys, type OwnedAnswerKey } from './answer-keys';
import { when } from './conditions';
import type { ApplicationDefinition, Condition, Page, Question, Section, TabGroup } from './types';

export interface QuestionEntry {
  page: Page;
  section: Section;
  question: Question;
  /** All must hold for the question to show (page, section, question, dependent options). */
  conditions: readonly Condition[];
  owned: readonly OwnedAnswerKey[];
  tabGroup?: TabGroup;
}

export interface CompiledDefinition {
  entries: readonly QuestionEntry[];
  /** Every owned answer key (values, companions, years, codes) to its question. */
  byAnswerKey: ReadonlyMap<string, { entry: QuestionEntry; owned: OwnedAnswerKey }>;
  /** Controlling answer key to the dependent selects that take options from it. */
  dependents: ReadonlyMap<string, readonly QuestionEntry[]>;
}

function collectConditions(page: Page, section: Section, question: Question): Condition[] {
  const conditions: Condition[] = [];
  if (page.showWhen) conditions.push(page.showWhen);
  if (section.showWhen) conditions.push(section.showWhen);
  if (question.showWhen) conditions.push(question.showWhen);
  // docs/behaviour.md: a dependent select renders only while its controlling answer has options.
  if (question.options?.kind === 'dependent') {
    conditions.push(when.in(question.options.key, Object.keys(question.options.byValue)));
  }
  return conditions;
}

const cache = new WeakMap<ApplicationDefinition, CompiledDefinition>();

export function compileDefinition(definition: ApplicationDefinition): CompiledDefinition {
  const cached = cache.get(definition);
  if (cached) return cached;
  const tabGroups = new Map(definition.tabGroups.map((g) => [g.id, g]));
  const entries: QuestionEntry[] = [];
  const byAnswerKey = new Map<string, { entry: QuestionEntry; owned: OwnedAnswerKey }>();
  const dependents = new Map<string, QuestionEntry[]>();
  for (const page of definition.pages) {
    for (const section of page.sections) {
      for (const question of section.questions) {
        const tabGroup = question.tab ? tabGroups.get(question.tab.group) : undefined;
        const entry: QuestionEntry = {
          page,
          section,
          question,
          conditions: collectConditions(page, section, question),
          owned: listOwnedAnswerKeys(question),
          ...(tabGroup ? { tabGroup } : {}),
        };
        entries.push(entry);
        for (const owned of entry.owned) {
          // The first owner wins here; checkDefinition reports any second one.
          if (!byAnswerKey.has(owned.key)) byAnswerKey.set(owned.key, { entry, owned });
        }
        if (question.options?.kind === 'dependent') {
          const list = dependents.get(question.options.key) ?? [];
          list.push(entry);
          dependents.set(question.options.key, list);
        }
      }
    }
  }
  const compiled: CompiledDefinition = { entries, byAnswerKey, dependents };
  cache.set(definition, compiled);
  return compiled;
}

/** The question owning an answer key (value, companion, year or code), with its page and section. */
export function findQuestionEntry(
  definition: ApplicationDefinition,
  key: string,
): QuestionEntry | undefined {
  return compileDefinition(definition).byAnswerKey.get(key)?.entry;
}
