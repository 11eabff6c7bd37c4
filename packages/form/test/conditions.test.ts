import { describe, expect, it } from 'vitest';
import {
  describeCondition,
  evaluateCondition,
  listConditionKeys,
  when,
  type Condition,
} from '../src';

const answers = {
  type: '4',
  score: '95',
  date: '2026-03-01',
  blank: '',
  spaces: '  ',
  name: 'Ana',
};

describe('evaluateCondition', () => {
  it.each<[string, Condition, boolean]>([
    ['equals match', when.equals('type', '4'), true],
    ['equals mismatch', when.equals('type', '3'), false],
    ['equals missing key as empty', when.equals('missing', ''), true],
    ['notEquals mismatch', when.notEquals('type', '3'), true],
    ['notEquals match', when.notEquals('type', '4'), false],
    ['lt numeric below', when.lt('score', 100), true],
    ['lt numeric equal', when.lt('score', 95), false],
    ['lt compares numbers, not text', when.lt('score', 100), true],
    ['lte equal', when.lte('score', 95), true],
    ['lte above', when.lte('score', 94), false],
    ['gt below', when.gt('score', 95), false],
    ['gt above', when.gt('score', 9), true],
    ['gte equal', when.gte('score', '95'), true],
    ['gte below', when.gte('score', 96), false],
    ['lt ISO dates as text', when.lt('date', '2026-04-01'), true],
    ['gt ISO dates as text', when.gt('date', '2026-04-01'), false],
    ['lt unanswered is false', when.lt('blank', 10), false],
    ['gte unanswered is false', when.gte('missing', 0), false],
    ['answered', when.answered('name'), true],
    ['answered blank', when.answered('blank'), false],
    ['answered whitespace', when.answered('spaces'), false],
    ['answered missing', when.answered('missing'), false],
    ['notAnswered blank', when.notAnswered('blank'), true],
    ['notAnswered filled', when.notAnswered('name'), false],
    ['in listed', when.in('type', ['2', '4']), true],
    ['in not listed', when.in('type', ['1', '3']), false],
    ['notIn not listed', when.notIn('type', ['1', '3']), true],
    ['notIn listed', when.notIn('type', ['4']), false],
    ['and all true', when.and(when.equals('type', '4'), when.answered('name')), true],
    ['and one false', when.and(when.equals('type', '4'), when.answered('blank')), false],
    ['and of none', when.and(), true],
    ['or one true', when.or(when.equals('type', '1'), when.answered('name')), true],
    ['or all false', when.or(when.equals('type', '1'), when.answered('blank')), false],
    ['or of none', when.or(), false],
    ['not true', when.not(when.equals('type', '4')), false],
    ['not false', when.not(when.equals('type', '1')), true],
  ])('%s', (_name, condition, expected) => {
    expect(evaluateCondition(condition, answers)).toBe(expected);
  });
});

describe('listConditionKeys', () => {
  it('collects keys through and/or/not', () => {
    const condition = when.and(
      when.equals('a', '1'),
      when.or(when.answered('b'), when.not(when.in('c', ['x']))),
    );
    expect(listConditionKeys(condition)).toEqual(['a', 'b', 'c']);
  });
});

describe('describeCondition', () => {
  it.each<[Condition, string]>([
    [when.equals('test_taken_ind', 'Y'), 'test_taken_ind is "Y"'],
    [when.in('citizenship_type', ['2', '4']), 'citizenship_type is one of 2, 4'],
    [when.gte('score', 90), 'score is at least 90'],
    [
      when.and(when.answered('a'), when.not(when.notAnswered('b'))),
      '(a is answered) and (not (b is not answered))',
    ],
  ])('%o reads "%s"', (condition, text) => {
    expect(describeCondition(condition)).toBe(text);
  });
});
