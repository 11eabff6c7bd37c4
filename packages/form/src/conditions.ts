// Conditions are data, so the SPA, the API, the print view and the data dictionary all read the
// same rule; these helpers build, evaluate and describe them.
import type { Answers, Condition } from './types';

export const when = {
  equals: (key: string, value: string): Condition => ({ op: 'equals', key, value }),
  notEquals: (key: string, value: string): Condition => ({ op: 'notEquals', key, value }),
  lt: (key: string, value: number | string): Condition => ({ op: 'lt', key, value }),
  lte: (key: string, value: number | string): Condition => ({ op: 'lte', key, value }),
  gt: (key: string, value: number | string): Condition => ({ op: 'gt', key, value }),
  gte: (key: string, value: number | string): Condition => ({ op: 'gte', key, value }),
  answered: (key: string): Condition => ({ op: 'answered', key }),
  notAnswered: (key: string): Condition => ({ op: 'notAnswered', key }),
  in: (key: string, values: readonly string[]): Condition => ({ op: 'in', key, values }),
  notIn: (key: string, values: readonly string[]): Condition => ({ op: 'notIn', key, values }),
  and: (...conditions: Condition[]): Condition => ({ op: 'and', conditions }),
  or: (...conditions: Condition[]): Condition => ({ op: 'or', conditions }),
  not: (condition: Condition): Condition => ({ op: 'not', condition }),
};

/** Whitespace alone is not an answer: a required field filled with spaces is still missing. */
export function isAnswered(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

// Numbers compare as numbers (scores, years); anything else compares as text, which orders
// ISO dates correctly. An unanswered value never satisfies an ordering.
function compareValues(answer: string, target: number | string): number | undefined {
  if (!isAnswered(answer)) return undefined;
  const a = Number(answer);
  const b = Number(target);
  if (Number.isFinite(a) && Number.isFinite(b)) return a - b;
  const t = String(target);
  return answer < t ? -1 : answer > t ? 1 : 0;
}

export function evaluateCondition(condition: Condition, answers: Answers): boolean {
  switch (condition.op) {
    case 'equals':
      return (answers[condition.key] ?? '') === condition.value;
    case 'notEquals':
      return (answers[condition.key] ?? '') !== condition.value;
    case 'answered':
      return isAnswered(answers[condition.key]);
    case 'notAnswered':
      return !isAnswered(answers[condition.key]);
    case 'in':
      return condition.values.includes(answers[condition.key] ?? '');
    case 'notIn':
      return !condition.values.includes(answers[condition.key] ?? '');
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const order = compareValues(answers[condition.key] ?? '', condition.value);
      if (order === undefined) return false;
      if (condition.op === 'lt') return order < 0;
      if (condition.op === 'lte') return order <= 0;
      if (condition.op === 'gt') return order > 0;
      return order >= 0;
    }
    case 'and':
      return condition.conditions.every((c) => evaluateCondition(c, answers));
    case 'or':
      return condition.conditions.some((c) => evaluateCondition(c, answers));
    case 'not':
      return !evaluateCondition(condition.condition, answers);
  }
}

/** Every answer key a condition reads (for the integrity check and dependency tracking). */
export function listConditionKeys(condition: Condition): string[] {
  switch (condition.op) {
    case 'and':
    case 'or':
      return condition.conditions.flatMap(listConditionKeys);
    case 'not':
      return listConditionKeys(condition.condition);
    default:
      return [condition.key];
  }
}

const OPERATOR_WORDS = {
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is greater than',
  gte: 'is at least',
} as const;

/** Plain-language rendering for the data dictionary, e.g. `citizenship_type is one of 2, 4`. */
export function describeCondition(condition: Condition): string {
  switch (condition.op) {
    case 'equals':
      return `${condition.key} is ${JSON.stringify(condition.value)}`;
    case 'notEquals':
      return `${condition.key} is not ${JSON.stringify(condition.value)}`;
    case 'answered':
      return `${condition.key} is answered`;
    case 'notAnswered':
      return `${condition.key} is not answered`;
    case 'in':
      return `${condition.key} is one of ${condition.values.join(', ')}`;
    case 'notIn':
      return `${condition.key} is none of ${condition.values.join(', ')}`;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return `${condition.key} ${OPERATOR_WORDS[condition.op]} ${String(condition.value)}`;
    case 'and':
      return condition.conditions.map((c) => `(${describeCondition(c)})`).join(' and ');
    case 'or':
      return condition.conditions.map((c) => `(${describeCondition(c)})`).join(' or ');
    case 'not':
      return `not (${describeCondition(condition.condition)})`;
  }
}
