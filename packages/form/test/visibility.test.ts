import { describe, expect, it } from 'vitest';
import {
  ABOUT_PAGE,
  APPLICATION_DEFINITION,
  buildAnswerPatch,
  clearHiddenAnswers,
  collectVisibleQuestionKeys,
  countRepeatBlocks,
  DEFAULT_PARTNER,
  isQuestionVisible,
  isSectionVisible,
  listDependentAnswerKeys,
  listHiddenAnswerKeys,
  listSectionAnswerKeys,
  listTabAnswersToClear,
  listVisibleQuestions,
  REPEAT_GROUPS,
} from '../src';
import { COMPLETE_ANSWERS, NOW } from './fixtures/complete-answers';

const def = APPLICATION_DEFINITION;
const visible = (key: string, answers: Record<string, string>) =>
  isQuestionVisible(def, key, answers);

describe('standardized test questions (docs/behaviour.md)', () => {
  it.each([
    [{ test_taken_ind: 'Y', citizenship_type: '4' }, 'toefl_taken', true],
    [{ test_taken_ind: 'Y', citizenship_type: '4' }, 'ielts_taken', true],
    [{ test_taken_ind: 'Y', citizenship_type: '4' }, 'duolingo_taken', true],
    [{ test_taken_ind: 'Y', citizenship_type: '1' }, 'toefl_taken', false],
    [{ test_taken_ind: 'N', citizenship_type: '4' }, 'toefl_taken', false],
    [{ test_taken_ind: 'Y' }, 'sat_taken', true],
    [{ test_taken_ind: 'N' }, 'sat_taken', false],
    [{ test_taken_ind: '' }, 'act_taken', false],
  ])('%o shows %s: %s', (answers, key, expected) => {
    expect(visible(key, answers)).toBe(expected);
  });

  const intl = { test_taken_ind: 'Y', citizenship_type: '4' };
  it.each([
    ['toefl_score', 'Y', true],
    ['toefl_score', 'N', false],
    ['duolingo_score', 'Y', true],
    ['ielts_score_overall', 'Y', true],
    ['toefl_taken_again', 'Y', true],
    ['toefl_taken_again', 'N', false],
    ['toefl_plan_month', 'N', true],
    ['toefl_plan_year', 'N', true],
    ['toefl_plan_month', 'Y', false],
    ['toefl_taken_unsure', 'N', true],
    ['toefl_taken_unsure', 'Y', false],
    ['toefl_taken_unsure', '', false],
  ])('%s when taken is %s: %s', (key, taken, expected) => {
    const test = key.split('_')[0] ?? '';
    expect(visible(key, { ...intl, [`${test}_taken`]: taken })).toBe(expected);
  });

  it.each([
    ['Y', true],
    ['N', false],
  ])('intended month and year when taken_again is %s: %s', (again, expected) => {
    const answers = { test_taken_ind: 'Y', sat_taken: 'Y', sat_taken_again: again };
    expect(visible('sat_intended_month', answers)).toBe(expected);
    expect(visible('sat_intended_year', answers)).toBe(expected);
  });
});

describe('clearHiddenAnswers', () => {
  it('clears a hidden section with its _desc companions and keeps the rest', () => {
    const answers = { ...COMPLETE_ANSWERS, mailing_addr_same_as_perm_addr: 'Y' };
    const cleared = clearHiddenAnswers(def, answers);
    for (const key of [
      'mailing_address_line_1',
      'mailing_city',
      'mailing_state',
      'mailing_state_desc',
      'mailing_zip',
      'mailing_country',
      'mailing_country_desc',
      'mailing_addr_effective_date',
    ]) {
      expect(cleared[key], key).toBe('');
    }
    expect(cleared.address_line_1).toBe(COMPLETE_ANSWERS.address_line_1);
    expect(cleared.mailing_addr_same_as_perm_addr).toBe('Y');
    expect('mailing_address_line_2' in cleared).toBe(false);
  });

  it('leaves a complete application as it is', () => {
    expect(clearHiddenAnswers(def, COMPLETE_ANSWERS)).toEqual(COMPLETE_ANSWERS);
  });

  it('clears month-year years and their companions', () => {
    const cleared = clearHiddenAnswers(def, { ...COMPLETE_ANSWERS, sat_taken_again: 'N' });
    expect(cleared.sat_intended_month).toBe('');
    expect(cleared.sat_intended_month_desc).toBe('');
    expect(cleared.sat_intended_year).toBe('');
    expect(cleared.sat_intended_year_desc).toBe('');
  });

  it('clears in cascade: a cleared answer hides what depended on it', () => {
    const answers = {
      citizenship_type: '1',
      f1_visa: 'N',
      f1_visa_desc: 'No',
      f1_visa_explain: 'I will apply later.',
    };
    expect(clearHiddenAnswers(def, answers)).toEqual({
      citizenship_type: '1',
      f1_visa: '',
      f1_visa_desc: '',
      f1_visa_explain: '',
    });
  });

  it('clears a dependent select whose controlling answer has no options', () => {
    const cleared = clearHiddenAnswers(def, {
      country: 'MEX',
      state: 'IL',
      state_desc: 'Illinois',
    });
    expect(cleared).toEqual({ country: 'MEX', state: '', state_desc: '' });
  });

  it('lists the keys it would clear', () => {
    const answers = { conviction: 'N', conviction_comment: 'old text', suspended: 'Y' };
    expect(listHiddenAnswerKeys(def, answers)).toEqual(['conviction_comment']);
  });

  it('clears the tab not chosen only when the tab choice is known', () => {
    const answers = { personal_statement_doc: 'ANSWERED', personal_statement_essay: 'Draft' };
    expect(clearHiddenAnswers(def, answers)).toEqual(answers);
    expect(clearHiddenAnswers(def, answers, { tabs: { personal_statement: 'essay' } })).toEqual({
      personal_statement_doc: '',
      personal_statement_essay: 'Draft',
    });
  });

  it('clears the conditional sections of the music major when the major changes', () => {
    const cleared = clearHiddenAnswers(def, { ...COMPLETE_ANSWERS, applied_major: 'BIO' });
    expect(cleared.primary_instrument).toBe('');
    expect(cleared.primary_instrument_desc).toBe('');
    expect(cleared.confirm_acknowledgement_music).toBe('');
  });
});

describe('sections and questions', () => {
  it('shows the mailing section only for a different mailing address', () => {
    const mailing = ABOUT_PAGE.sections.find((s) => s.id === 'mailing-address');
    expect(mailing).toBeDefined();
    if (!mailing) return;
    expect(isSectionVisible(ABOUT_PAGE, mailing, { mailing_addr_same_as_perm_addr: 'N' })).toBe(
      true,
    );
    expect(isSectionVisible(ABOUT_PAGE, mailing, { mailing_addr_same_as_perm_addr: 'Y' })).toBe(
      false,
    );
    expect(listSectionAnswerKeys(mailing)).toContain('mailing_country_desc');
  });

  it('lists visible questions in page order', () => {
    const keys = listVisibleQuestions(def, COMPLETE_ANSWERS).map((e) => e.question.key);
    expect(keys[0]).toBe('first_name');
    expect(keys.at(-1)).toBe('legal_agree');
    expect(keys).toContain('primary_instrument');
    expect(keys).not.toContain('toefl_taken');
  });

  it('collects visible question keys once for a renderer', () => {
    const keys = collectVisibleQuestionKeys(def, { citizenship_type: '3' });
    expect(keys.has('dual_citizen_country')).toBe(true);
    expect(keys.has('ssn')).toBe(false);
    expect(keys.has('mailing_city')).toBe(false);
  });

  it('does not call an unknown key visible', () => {
    expect(visible('no_such_key', {})).toBe(false);
  });
});

describe('dependent selects', () => {
  it('names the dependants of a controlling answer', () => {
    expect(listDependentAnswerKeys(def, 'country')).toEqual(['state', 'state_desc']);
    expect(listDependentAnswerKeys(def, 'applied_major')).toEqual([
      'applied_major_concentration',
      'applied_major_concentration_desc',
    ]);
    expect(listDependentAnswerKeys(def, 'first_name')).toEqual([]);
  });

  const context = { answers: { country: 'USA', state: 'IL' }, now: NOW, partner: DEFAULT_PARTNER };
  it('writes the companion and clears dependants when the controlling answer changes', () => {
    expect(buildAnswerPatch(def, 'country', 'CAN', context)).toEqual({
      country: 'CAN',
      country_desc: 'Canada',
      state: '',
      state_desc: '',
    });
  });

  it('keeps dependants when the value does not change', () => {
    expect(buildAnswerPatch(def, 'country', 'USA', context)).toEqual({
      country: 'USA',
      country_desc: 'United States of America',
    });
  });

  it('describes a dependent option from the controlling answer', () => {
    expect(
      buildAnswerPatch(def, 'state', 'QC', { ...context, answers: { country: 'CAN' } }),
    ).toEqual({
      state: 'QC',
      state_desc: 'Quebec',
    });
  });

  it('writes year companions and leaves text answers alone', () => {
    expect(buildAnswerPatch(def, 'grad_year', '2026', context)).toEqual({
      grad_year: '2026',
      grad_year_desc: '2026',
    });
    expect(buildAnswerPatch(def, 'first_name', 'Ana', context)).toEqual({ first_name: 'Ana' });
  });
});

describe('tabs and add-another', () => {
  it('names the answers each tab clears', () => {
    expect(listTabAnswersToClear(def, 'business_statement', 'essay')).toEqual([
      'business_statement_doc',
    ]);
    expect(listTabAnswersToClear(def, 'business_statement', 'upload')).toEqual([
      'business_statement_essay',
    ]);
    expect(listTabAnswersToClear(def, 'nope', 'essay')).toEqual([]);
  });

  const parents = REPEAT_GROUPS.find((g) => g.id === 'parents');
  const schools = REPEAT_GROUPS.find((g) => g.id === 'high_schools');
  it('starts with one block and grows to cover answers and errors', () => {
    if (!parents || !schools) throw new Error('groups missing');
    expect(countRepeatBlocks(parents, def, {})).toBe(1);
    expect(countRepeatBlocks(parents, def, { parent_2_first_name: 'Luis' })).toBe(2);
    expect(countRepeatBlocks(schools, def, { hs_3_name: 'X' }, 1)).toBe(3);
    expect(countRepeatBlocks(parents, def, {}, 1, ['parent_2_email_address'])).toBe(2);
  });

  it('never shows more blocks than there are keys for', () => {
    if (!parents) throw new Error('groups missing');
    expect(countRepeatBlocks(parents, def, {}, 7)).toBe(2);
  });
});
