import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_ANSWER_KEYS,
  APPLICATION_DEFINITION,
  clearHiddenAnswers,
  validateAnswers,
} from '../src';

const knownKey = fc.constantFrom(...ALLOWED_ANSWER_KEYS);
const anyKey = fc.oneof(
  knownKey,
  fc.string(),
  fc.constantFrom('__proto__', 'constructor', 'toString'),
);
// Values biased towards the codes conditions look at, so deep branches are reached.
const anyValue = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    'Y',
    'N',
    'true',
    'false',
    '1',
    '2',
    '3',
    '4',
    '12',
    'USA',
    'CAN',
    'THE',
    'MUS',
    'ANSWERED',
  ),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);
const answerMap = fc.dictionary(anyKey, anyValue, { maxKeys: 120 });
const moment = fc.date({
  min: new Date('1970-01-01'),
  max: new Date('2200-01-01'),
  noInvalidDate: true,
});

describe('validateAnswers on arbitrary answers', () => {
  it('never throws and returns lists of unique strings', () => {
    fc.assert(
      fc.property(answerMap, moment, (answers, now) => {
        const errors = validateAnswers(APPLICATION_DEFINITION, answers, { now });
        for (const messages of Object.values(errors)) {
          expect(messages.length).toBeGreaterThan(0);
          expect(new Set(messages).size).toBe(messages.length);
          for (const m of messages) expect(typeof m).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('only reports keys the definition knows', () => {
    fc.assert(
      fc.property(answerMap, (answers) => {
        const errors = validateAnswers(APPLICATION_DEFINITION, answers, { now: new Date() });
        for (const key of Object.keys(errors)) expect(ALLOWED_ANSWER_KEYS.has(key)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('clearing hidden answers is idempotent', () => {
    fc.assert(
      fc.property(answerMap, (answers) => {
        const once = clearHiddenAnswers(APPLICATION_DEFINITION, answers);
        expect(clearHiddenAnswers(APPLICATION_DEFINITION, once)).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });
});
