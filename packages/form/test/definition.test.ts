import { describe, expect, it } from 'vitest';
import {
  ALLOWED_ANSWER_KEYS,
  APPLICATION_DEFINITION,
  assertDefinition,
  findQuestionEntry,
  PAGE_IDS,
  SENSITIVE_ANSWER_KEYS,
  IDENTIFIER_ANSWER_KEYS,
  PREFILL_REFUSED_ANSWER_KEYS,
  APPLICANT_NAME_KEYS,
  buildDataDictionary,
  buildQuestionPageMap,
  checkAnswerPatch,
  checkDefinition,
  DEFAULT_PARTNER,
  formatDictionary,
  isKnownAnswerKey,
  linkToQuestion,
  maxLengthFor,
  QUESTION_PAGE_MAP,
  summarizeErrors,
  type ApplicationDefinition,
  type DictionaryRow,
  type PageId,
} from '../src';

// Every answer key docs/data-model.md names, with its page, written out from the spec text.
const prefixed = (prefixes: string[], fields: string[]) =>
  prefixes.flatMap((p) => fields.map((f) => `${p}${f}`));

const PARENT_FIELDS = [
  'relationship',
  'prefix',
  'first_name',
  'last_name',
  'email_address',
  'phone',
  'occupation',
  'employer',
  'education',
  'education_other',
  'college_name',
  'addr_same_as_stu_perm',
  'address_line_1',
  'address_line_2',
  'city',
  'state',
  'zip',
  'country',
];
const TEST_FIELDS = [
  'taken',
  'taken_again',
  'plan_month',
  'plan_year',
  'intended_month',
  'intended_year',
  'taken_unsure',
];
const HIGH_SCHOOL_FIELDS = [
  'name',
  'ceeb',
  'address_line_1',
  'city',
  'state',
  'zip',
  'country',
  'attend_from_month',
  'attend_from_year',
  'attend_to_month',
  'attend_to_year',
];

const SPEC_KEYS: Record<PageId, string[]> = {
  about: [
    ...['first_name', 'middle_name', 'last_name', 'preferred_name', 'phone_home', 'phone_mobile'],
    ...['optin_sms_ind', 'phone_international', 'birth_date', 'gender', 'gender_iden'],
    ...['preferred_pronoun', 'birth_country', 'email_address'],
    ...['address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country'],
    ...['mailing_addr_same_as_perm_addr', 'mailing_address_line_1', 'mailing_address_line_2'],
    ...['mailing_city', 'mailing_state', 'mailing_zip', 'mailing_country'],
    'mailing_addr_effective_date',
    ...['citizenship_type', 'aid_eligible', 'citizenship', 'alien_registration_number'],
    ...['resident_number', 'domestic_length', 'native_language', 'native_language_select'],
    ...['home_language', 'primary_language', 'dual_citizen_country', 'dual_2_citizen_country'],
    ...['birth_city', 'address_home_country', 'f1_visa', 'f1_visa_explain', 'domestic_location'],
    ...['domestic_date', 'other_visa_status', 'agency_flag', 'agency_name', 'agency_location'],
    ...['citizenship_visa_status', 'ssn'],
    ...['ethnicity', 'race_american_indian', 'race_asian', 'race_black', 'race_native_hawaiian'],
    'race_white',
    'parent_communication_preference',
    ...prefixed(['parent_', 'parent_2_'], PARENT_FIELDS),
    'sibling_admission',
    'sibling_admission_name',
    ...prefixed(
      ['legacy_', 'legacy_2_', 'legacy_3_', 'legacy_4_'],
      ['relationship', 'first_name', 'last_name', 'middle_name', 'grad_year'],
    ),
  ],
  education: [
    ...['entry_term', 'living_plans', 'financial_aid', 'classes_taken', 'early_assurance'],
    ...['step_level', 'business_statement_doc', 'business_statement_essay', 'joint_degree'],
    ...['applied_major_preprof', 'applied_major', 'secondary_major', 'nurse_enrollment'],
    ...['primary_instrument', 'applied_major_concentration', 'special_programs'],
    ...['support_statement_doc', 'support_statement_essay', 'bridges_acknowledgement'],
    ...['honors_statement_doc', 'honors_statement_essay', 'honors_additional_statement_doc'],
    ...['honors_additional_statement_essay', 'learning_resource', 'levermore_statement_doc'],
    'levermore_statement_essay',
    ...prefixed(['confirm_acknowledgement_'], ['art', 'dance', 'music', 'theater', 'socialwork']),
    ...prefixed(['hs_', 'hs_2_', 'hs_3_'], HIGH_SCHOOL_FIELDS),
    ...['counselor_first_name', 'counselor_last_name', 'counselor_email_address'],
    ...['grad_month', 'grad_year', 'test_taken_ind'],
    ...prefixed(['sat_', 'act_', 'toefl_', 'duolingo_', 'ielts_'], TEST_FIELDS),
    ...['toefl_score', 'duolingo_score', 'ielts_score_overall'],
    ...['personal_statement_essay', 'personal_statement_doc'],
  ],
  'final-steps': [
    ...['conviction', 'conviction_comment', 'suspended', 'suspended_comment'],
    ...['counselor_waiver_request', 'legal_agree'],
  ],
};

const rows = buildDataDictionary(APPLICATION_DEFINITION, DEFAULT_PARTNER);
const rowByKey = new Map<string, DictionaryRow>(rows.map((r) => [r.key, r]));

describe('the definition', () => {
  it('passes its own integrity check', () => {
    expect(checkDefinition(APPLICATION_DEFINITION)).toEqual([]);
  });

  it('derives the protected and the name keys from its own flags', () => {
    expect([...IDENTIFIER_ANSWER_KEYS].sort()).toEqual(['alien_registration_number', 'ssn']);
    expect([...SENSITIVE_ANSWER_KEYS].sort()).toEqual([
      'alien_registration_number',
      'conviction_comment',
      'ssn',
      'suspended_comment',
    ]);
    expect([...PREFILL_REFUSED_ANSWER_KEYS].sort()).toEqual([
      'alien_registration_number',
      'conviction',
      'conviction_comment',
      'conviction_desc',
      'ssn',
      'suspended',
      'suspended_comment',
      'suspended_desc',
    ]);
    expect(APPLICANT_NAME_KEYS).toEqual({
      first: 'first_name',
      middle: 'middle_name',
      last: 'last_name',
    });
  });

  it('lists its pages in step order', () => {
    expect(APPLICATION_DEFINITION.pages.map((p) => [p.id, p.step])).toEqual(
      PAGE_IDS.map((id, i) => [id, i + 1]),
    );
  });

  it('finds the question owning a companion', () => {
    expect(
      findQuestionEntry(APPLICATION_DEFINITION, 'hs_2_attend_to_year_desc')?.question.key,
    ).toBe('hs_2_attend_to_month');
    expect(findQuestionEntry(APPLICATION_DEFINITION, 'nope')).toBeUndefined();
  });

  it('asserts cleanly for itself and throws a list for a broken one', () => {
    expect(() => assertDefinition(APPLICATION_DEFINITION)).not.toThrow();
    const broken: ApplicationDefinition = {
      ...APPLICATION_DEFINITION,
      pages: [...APPLICATION_DEFINITION.pages, ...APPLICATION_DEFINITION.pages.slice(2)],
    };
    expect(() => assertDefinition(broken)).toThrowError(
      /^Invalid application definition:\n- page final-steps is defined twice\n/,
    );
  });

  it('has a companion for every choice field', () => {
    const choices = rows.filter((r) => ['select', 'radio', 'month-year', 'year'].includes(r.type));
    expect(choices.length).toBeGreaterThan(50);
    for (const row of choices)
      expect(ALLOWED_ANSWER_KEYS.has(`${row.key}_desc`), row.key).toBe(true);
  });
});

describe('the data dictionary', () => {
  it.each(Object.entries(SPEC_KEYS).flatMap(([page, keys]) => keys.map((k) => [k, page])))(
    'lists %s on page %s',
    (key, page) => {
      expect(rowByKey.get(key)?.page).toBe(page);
    },
  );

  it('lists no key twice and nothing the definition does not accept', () => {
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
    expect(rows.map((r) => r.key).sort()).toEqual([...ALLOWED_ANSWER_KEYS].sort());
  });

  it('shows options with codes and labels, conditions and rules', () => {
    const type = rowByKey.get('citizenship_type');
    expect(type?.options).toContainEqual({
      value: '4',
      label: 'International Student (not a U.S. citizen)',
    });
    expect(rowByKey.get('ssn')?.condition).toBe('citizenship_type is one of 1, 2');
    expect(rowByKey.get('birth_date')?.rules.join(' ')).toContain('at least 13 years old');
    expect(rowByKey.get('applied_major')?.label).toBe(
      'What do you plan to major in at Example State?',
    );
    expect(rowByKey.get('gender_desc')?.role).toBe('companion');
    expect(rowByKey.get('grad_year')?.optionsNote).toContain('15 years back');
    expect(rowByKey.get('state')?.optionsNote).toContain('depends on country');
  });

  it('formats JSON that parses back to the rows', () => {
    expect(JSON.parse(formatDictionary(rows, 'json'))).toEqual(rows);
  });

  it('formats CSV with a header, one line per key and quoted cells', () => {
    const csv = formatDictionary(rows, 'csv');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'page,section,key,role,questionKey,label,type,maxLength,condition,required,rules,options,optionsNote',
    );
    const line = lines.find((l) => l.startsWith('about,personal,gender,'));
    expect(line).toContain('F=Female; M=Male');
    expect(line).toContain('"yes: ""Sex Assigned at Birth"""');
  });
});

describe('answer keys the API accepts', () => {
  it.each([
    ['first_name', true],
    ['gender_desc', true],
    ['grad_year_desc', true],
    ['hs_ceeb', true],
    ['first_name_desc', false],
    ['legal_agree_desc', false],
    ['bogus', false],
    ['__proto__', false],
    ['constructor', false],
  ])('%s known: %s', (key, expected) => {
    expect(isKnownAnswerKey(key)).toBe(expected);
  });

  it.each([
    ['first_name', 45],
    ['email_address', 254],
    ['conviction_comment', 1500],
    ['personal_statement_essay', 7000],
    ['gender_desc', 255],
    ['grad_year', 4],
    ['ssn', 11],
    ['bogus', undefined],
  ])('%s may hold %s characters', (key, limit) => {
    expect(maxLengthFor(key)).toBe(limit);
  });

  it('takes the essay limit from the partner', () => {
    expect(
      maxLengthFor('business_statement_essay', { ...DEFAULT_PARTNER, textAreaLimit: 9000 }),
    ).toBe(9000);
  });

  it('checks a PUT /api/answer body', () => {
    expect(checkAnswerPatch({ first_name: 'Ana', gender: 'F', gender_desc: 'Female' })).toEqual([]);
    expect(checkAnswerPatch({ hacker: 'x', first_name: 'x'.repeat(46), last_name: 3 })).toEqual([
      { key: 'hacker', problem: 'unknown' },
      { key: 'first_name', problem: 'too-long', limit: 45 },
      { key: 'last_name', problem: 'not-a-string' },
    ]);
  });
});

describe('the question-to-page map', () => {
  it.each([
    ['first_name', 'about#first_name'],
    ['parent_2_zip', 'about#parent_2_zip'],
    ['grad_year', 'education#grad_year'],
    ['business_statement_doc', 'education#business_statement_doc'],
    ['legal_agree', 'final-steps#legal_agree'],
    ['unknown_key', undefined],
    ['toString', undefined],
  ])('%s links to %s', (key, href) => {
    expect(linkToQuestion(key)).toBe(href);
  });

  it('covers every allowed key', () => {
    expect(Object.keys(QUESTION_PAGE_MAP).length).toBe(ALLOWED_ANSWER_KEYS.size);
  });

  it('groups errors by page in question order, unmapped keys apart', () => {
    const summary = summarizeErrors(APPLICATION_DEFINITION, {
      legal_agree: ['L'],
      last_name: ['B'],
      first_name: ['A'],
      mystery: ['M'],
    });
    expect(summary.pages.map((p) => p.page)).toEqual(['about', 'final-steps']);
    expect(summary.pages[0]?.items.map((i) => i.href)).toEqual([
      'about#first_name',
      'about#last_name',
    ]);
    expect(summary.unmapped).toEqual([{ key: 'mystery', messages: ['M'] }]);
  });
});

describe('checkDefinition finds configuration errors', () => {
  const page = (id: PageId, keys: string[], extra: Partial<ApplicationDefinition> = {}) =>
    ({
      pages: [
        {
          id,
          step: 1,
          title: id,
          sections: [
            {
              id: `${id}-s`,
              title: 'S',
              questions: keys.map((key) => ({ key, type: 'text', label: key })),
            },
          ],
        },
      ],
      repeatGroups: [],
      tabGroups: [],
      ...extra,
    }) as ApplicationDefinition;

  it('reports a key on two pages', () => {
    const a = page('about', ['first_name']);
    const b = page('education', ['first_name']);
    const both: ApplicationDefinition = { ...a, pages: [...a.pages, ...b.pages] };
    expect(checkDefinition(both)).toEqual([
      'answer key first_name is used on pages about and education (first_name and first_name)',
    ]);
  });

  it('reports a condition on an unknown key', () => {
    const def = page('about', ['a']);
    const broken: ApplicationDefinition = {
      ...def,
      pages: def.pages.map((p) => ({
        ...p,
        sections: p.sections.map((s) => ({
          ...s,
          showWhen: { op: 'equals', key: 'ghost', value: 'Y' },
        })),
      })),
    };
    expect(checkDefinition(broken)).toEqual(['section about-s names unknown answer key ghost']);
  });

  it('reports an add-another maximum above 10 and above the keys that exist', () => {
    const def = page('about', ['a'], {
      repeatGroups: [
        { id: 'g', title: 'Gs', buttonLabel: 'Add', defaultCount: 1, max: 11, prefixes: ['a_'] },
      ],
    });
    expect(checkDefinition(def)).toEqual([
      'add-another g allows 11 blocks; the maximum is 10',
      'add-another g allows 11 blocks but only 1 have answer keys',
    ]);
  });

  it('reports a choice field without options and a bad tab group', () => {
    const def = page('about', ['a'], {
      tabGroups: [
        {
          id: 't',
          label: 'T',
          defaultTab: 'x',
          tabs: [{ id: 'y', label: 'Y', questionKey: 'zz', clears: [] }],
        },
      ],
    });
    const first = def.pages[0]?.sections[0];
    const withSelect: ApplicationDefinition = {
      ...def,
      pages: [
        {
          ...(def.pages[0] as ApplicationDefinition['pages'][number]),
          sections: [
            {
              ...(first as NonNullable<typeof first>),
              questions: [{ key: 'a', type: 'select', label: 'A' }],
            },
          ],
        },
      ],
    };
    expect(checkDefinition(withSelect)).toEqual([
      'question a is a select without options',
      'tab group t has unknown default tab x',
      'tab t/y names unknown answer key zz',
    ]);
  });

  it('builds the page map from any definition', () => {
    expect(buildQuestionPageMap(page('education', ['x']))).toEqual({ x: 'education' });
  });
});
