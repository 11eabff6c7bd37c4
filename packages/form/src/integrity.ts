// checkDefinition: the configuration errors docs/validation.md says local development must surface, as a
// list so a test (and the API at start-up) can report all of them at once.
import { isChoiceType, listOwnedAnswerKeys } from './answer-keys';
import { listConditionKeys } from './conditions';
import { ADD_ANOTHER_MAX } from './messages';
import type { ApplicationDefinition, Condition, Question } from './types';

function conditionsOf(question: Question): Condition[] {
  const list: Condition[] = [];
  if (question.showWhen) list.push(question.showWhen);
  if (question.required?.when) list.push(question.required.when);
  if (question.minLength?.when) list.push(question.minLength.when);
  return list;
}

export function checkDefinition(definition: ApplicationDefinition): string[] {
  const problems: string[] = [];
  const owner = new Map<string, string>();
  const pageOf = new Map<string, string>();
  const sectionIds = new Set<string>();
  const pageIds = new Set<string>();

  for (const page of definition.pages) {
    if (pageIds.has(page.id)) problems.push(`page ${page.id} is defined twice`);
    pageIds.add(page.id);
    for (const section of page.sections) {
      if (sectionIds.has(section.id)) problems.push(`section ${section.id} is defined twice`);
      sectionIds.add(section.id);
      for (const question of section.questions) {
        for (const { key } of listOwnedAnswerKeys(question)) {
          const previous = owner.get(key);
          if (previous !== undefined) {
            const where =
              pageOf.get(key) === page.id ? 'twice' : `on pages ${pageOf.get(key)} and ${page.id}`;
            problems.push(`answer key ${key} is used ${where} (${previous} and ${question.key})`);
          } else {
            owner.set(key, question.key);
            pageOf.set(key, page.id);
          }
        }
      }
    }
  }

  const requireKey = (key: string, where: string) => {
    if (!owner.has(key)) problems.push(`${where} names unknown answer key ${key}`);
  };
  const tabGroupIds = new Set(definition.tabGroups.map((g) => g.id));

  for (const page of definition.pages) {
    if (page.showWhen)
      listConditionKeys(page.showWhen).forEach((k) => requireKey(k, `page ${page.id}`));
    for (const section of page.sections) {
      if (section.showWhen) {
        listConditionKeys(section.showWhen).forEach((k) => requireKey(k, `section ${section.id}`));
      }
      if (section.repeat) {
        const group = definition.repeatGroups.find((g) => g.id === section.repeat?.group);
        const prefix = group?.prefixes[section.repeat.index - 1];
        if (!group)
          problems.push(
            `section ${section.id} names unknown add-another group ${section.repeat.group}`,
          );
        else if (prefix === undefined)
          problems.push(
            `section ${section.id} is block ${section.repeat.index} of ${group.id}, which has no key prefix for it`,
          );
        else {
          for (const q of section.questions) {
            if (!q.key.startsWith(prefix))
              problems.push(`${q.key} in ${section.id} does not start with ${prefix}`);
          }
        }
      }
      for (const question of section.questions) {
        const where = `question ${question.key}`;
        conditionsOf(question).forEach((c) =>
          listConditionKeys(c).forEach((k) => requireKey(k, where)),
        );
        if (question.options?.kind === 'dependent') requireKey(question.options.key, where);
        if (isChoiceType(question.type) && !question.options)
          problems.push(`${where} is a ${question.type} without options`);
        if (question.type === 'month-year' && (!question.yearKey || !question.yearOptions)) {
          problems.push(`${where} is a month-year without a year key and year options`);
        }
        if (question.type === 'autocomplete' && !question.category)
          problems.push(`${where} is an autocomplete without a category`);
        if (question.tab && !tabGroupIds.has(question.tab.group))
          problems.push(`${where} names unknown tab group ${question.tab.group}`);
        if (question.label.trim() === '') problems.push(`${where} has no label`);
      }
    }
  }

  for (const group of definition.repeatGroups) {
    if (group.max > ADD_ANOTHER_MAX)
      problems.push(
        `add-another ${group.id} allows ${group.max} blocks; the maximum is ${ADD_ANOTHER_MAX}`,
      );
    if (group.max > group.prefixes.length)
      problems.push(
        `add-another ${group.id} allows ${group.max} blocks but only ${group.prefixes.length} have answer keys`,
      );
    if (group.defaultCount < 1 || group.defaultCount > group.max)
      problems.push(`add-another ${group.id} starts with ${group.defaultCount} blocks`);
  }

  for (const group of definition.tabGroups) {
    if (!group.tabs.some((t) => t.id === group.defaultTab))
      problems.push(`tab group ${group.id} has unknown default tab ${group.defaultTab}`);
    for (const tab of group.tabs) {
      requireKey(tab.questionKey, `tab ${group.id}/${tab.id}`);
      tab.clears.forEach((k) => requireKey(k, `tab ${group.id}/${tab.id}`));
    }
  }
  return problems;
}

/** For start-up and local development: throw one error listing every configuration problem. */
export function assertDefinition(definition: ApplicationDefinition): void {
  const problems = checkDefinition(definition);
  if (problems.length > 0) {
    throw new Error(`Invalid application definition:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
}
