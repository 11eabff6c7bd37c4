import { describe, expect, it } from 'vitest';
import {
  APPLICATION_DEFINITION,
  checkAnswerPatch,
  countCharacters,
  DEFAULT_PARTNER,
  isKnownAnswerKey,
  validateAnswers,
} from '@admissions/form';
import { buildAnswerView, collectAnswerPairs } from '../src';
import { ANSWER_FIXTURES, buildLongStatement, createAnswerFixtures } from '../src/fixtures';

const fixtures = Object.values(ANSWER_FIXTURES);

describe('answer fixtures', () => {
  it.each(fixtures.map((f) => [f.name, f] as const))('%s passes validateAnswers', (_, fixture) => {
    const errors = validateAnswers(APPLICATION_DEFINITION, fixture.answers, {
      now: new Date(),
      partner: DEFAULT_PARTNER,
      context: { tabs: fixture.tabs },
    });
    expect(errors).toEqual({});
  });

  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s is accepted by PUT /api/answer (checkAnswerPatch)',
    (_, fixture) => {
      expect(checkAnswerPatch(fixture.answers)).toEqual([]);
    },
  );

  it('stay valid in other years (years are counted from now)', () => {
    for (const now of [new Date('2027-01-01T00:00:00Z'), new Date('2031-12-31T23:00:00Z')]) {
      for (const fixture of Object.values(createAnswerFixtures(now))) {
        const errors = validateAnswers(APPLICATION_DEFINITION, fixture.answers, {
          now,
          context: { tabs: fixture.tabs },
        });
        expect(errors, `${fixture.name} in ${now.getUTCFullYear()}`).toEqual({});
      }
    }
  });

  it('name only known add-another buttons, tab groups and file questions', () => {
    const groups = new Set(APPLICATION_DEFINITION.repeatGroups.map((g) => g.id));
    const tabGroups = new Map(APPLICATION_DEFINITION.tabGroups.map((g) => [g.id, g]));
    for (const fixture of fixtures) {
      for (const id of Object.keys(fixture.addAnother)) expect(groups.has(id)).toBe(true);
      for (const [id, tab] of Object.entries(fixture.tabs)) {
        expect(tabGroups.get(id)?.tabs.map((t) => t.id)).toContain(tab);
      }
      for (const [key, doc] of Object.entries(fixture.documents)) {
        expect(isKnownAnswerKey(key)).toBe(true);
        expect(fixture.answers[key]).toBe('ANSWERED');
        expect(countCharacters(doc.file_name)).toBeLessThanOrEqual(32);
      }
    }
  });

  it('carry hidden answers that the view leaves out', () => {
    for (const fixture of fixtures) {
      const view = buildAnswerView(APPLICATION_DEFINITION, fixture.answers, {
        partner: DEFAULT_PARTNER,
        ...fixture,
      });
      const text = JSON.stringify(view);
      for (const key of fixture.hiddenKeys) {
        expect(fixture.answers[key], key).toMatch(/HIDDEN/);
        expect(
          view.pages.flatMap((p) => p.sections.flatMap((s) => s.rows.map((r) => r.key))),
        ).not.toContain(key);
      }
      expect(text).not.toMatch(/HIDDEN/);
    }
  });

  it('the add-another fixture has the blocks and documents the parity test expects', () => {
    const fixture = ANSWER_FIXTURES['add-another'];
    const view = buildAnswerView(APPLICATION_DEFINITION, fixture.answers, {
      partner: DEFAULT_PARTNER,
      ...fixture,
    });
    const blocks = view.pages.flatMap((p) => p.sections.flatMap((s) => (s.block ? [s.block] : [])));
    const count = (group: string) => blocks.filter((b) => b.group === group).length;
    expect([count('parents'), count('legacy'), count('high_schools')]).toEqual([2, 3, 2]);
    expect(view.documents.map((d) => d.key)).toEqual([
      'business_statement_doc',
      'honors_statement_doc',
      'personal_statement_doc',
    ]);
  });

  it('the international fixture shows TOEFL and IELTS', () => {
    const fixture = ANSWER_FIXTURES.international;
    const view = buildAnswerView(APPLICATION_DEFINITION, fixture.answers, {
      partner: DEFAULT_PARTNER,
      ...fixture,
    });
    const titles = view.pages.flatMap((p) => p.sections.map((s) => s.title));
    expect(titles).toEqual(expect.arrayContaining(['TOEFL', 'IELTS']));
    expect(collectAnswerPairs(view)).toContainEqual({ label: 'TOEFL Total Score', value: '108' });
  });

  it('the Unicode applicant has a statement of exactly the partner limit', () => {
    const fixture = ANSWER_FIXTURES.unicode;
    expect(fixture.answers.first_name).toBe('Zoë Łukasz');
    expect(fixture.answers.last_name).toBe('王小明 Дмитрий');
    const statement = fixture.answers.personal_statement_essay ?? '';
    expect(countCharacters(statement)).toBe(DEFAULT_PARTNER.textAreaLimit);
    expect(statement).toMatch(/\p{Script=Greek}/u);
    expect(statement).toMatch(/\p{Script=Cyrillic}/u);
    expect(statement).toMatch(/\p{Script=Han}/u);
    expect(countCharacters(buildLongStatement(123))).toBe(123);
  });

  it('the complete fixture leaves no visible question unanswered', () => {
    const fixture = ANSWER_FIXTURES.complete;
    const view = buildAnswerView(APPLICATION_DEFINITION, fixture.answers, {
      partner: DEFAULT_PARTNER,
      ...fixture,
    });
    const empty = collectAnswerPairs(view).filter((p) => p.value === '');
    expect(empty).toEqual([]);
  });
});
