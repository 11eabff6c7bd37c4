// The one wording of an answer-patch problem and the one test for a file question, shared by
// PUT /api/answer and the prefill command (services/api).
import { describe, expect, it } from 'vitest';
import { checkAnswerPatch, describeAnswerProblem, isFileQuestion } from '../src';

describe('describeAnswerProblem', () => {
  it('names the key and what is wrong with its answer', () => {
    const problems = checkAnswerPatch({
      not_a_question: 'x',
      first_name: 'x'.repeat(10_000),
      last_name: 7,
    }).map(describeAnswerProblem);
    expect(problems).toEqual([
      '"not_a_question" is not a question of this application.',
      expect.stringMatching(
        /^The answer to "first_name" is too long \(at most \d+ characters\)\.$/,
      ),
      'The answer to "last_name" must be text.',
    ]);
  });
});

describe('isFileQuestion', () => {
  it('is true for the answer key of a file question only, by the definition', () => {
    expect(isFileQuestion('personal_statement_doc')).toBe(true);
    // Its text twin, a plain question, and a key that only looks like a document's.
    expect(isFileQuestion('personal_statement_essay')).toBe(false);
    expect(isFileQuestion('first_name')).toBe(false);
    expect(isFileQuestion('made_up_doc')).toBe(false);
  });
});
