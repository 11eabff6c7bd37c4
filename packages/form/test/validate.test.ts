import { describe, expect, it } from 'vitest';
import {
  APPLICATION_DEFINITION,
  DEFAULT_PARTNER,
  MESSAGES,
  maximumYearMessage,
  minimumYearMessage,
  tooLongMessage,
  validateAnswers,
  type PartnerConfig,
  type VisibilityContext,
} from '../src';
import { COMPLETE_ANSWERS, NOW } from './fixtures/complete-answers';

function errorsFor(
  patch: Record<string, string>,
  options: { partner?: PartnerConfig; context?: VisibilityContext; now?: Date } = {},
) {
  return validateAnswers(
    APPLICATION_DEFINITION,
    { ...COMPLETE_ANSWERS, ...patch },
    { now: options.now ?? NOW, ...options },
  );
}

const PARENT_1_EMAIL = 'Parent 1/Guardian 1: Please enter a valid email address.';
const PARENT_2_EMAIL = 'Parent 2/Guardian 2: Please enter a valid email address.';

describe('validateAnswers on a complete application', () => {
  it('finds nothing wrong', () => {
    expect(errorsFor({})).toEqual({});
  });
});

describe('required fields: the label is the message (docs/validation.md)', () => {
  it.each([
    ['first_name', 'First/Given Name'],
    ['last_name', 'Last/Family Name'],
    ['gender', 'Sex Assigned at Birth'],
    ['birth_date', 'Date of Birth'],
    ['address_line_1', 'Address'],
    ['city', 'City'],
    ['country', 'Country'],
    ['citizenship_type', 'Citizen Type'],
    ['entry_term', 'When do you plan to enroll?'],
    ['living_plans', 'Where do you intend to live?'],
    [
      'applied_major_preprof',
      'You may also indicate your interest in a general pre-professional pathway below.',
    ],
    ['applied_major', 'What do you plan to major in at Example State?'],
    ['hs_name', 'Search for Your School'],
    [
      'test_taken_ind',
      'Do you plan to submit standardized test scores as part of your application?',
    ],
    ['conviction', '1. Have you ever been convicted of a misdemeanor, felony, or other crime?'],
    [
      'suspended',
      '2. Have you ever been suspended, expelled, or otherwise disciplined by a school you attended?',
    ],
    [
      'counselor_waiver_request',
      'Do you waive your right under FERPA to review the recommendation your school counselor submits?',
    ],
    [
      'legal_agree',
      'I certify that the information in my application is complete, accurate and my own.',
    ],
  ])('%s empty gives "%s"', (key, message) => {
    // Clearing a controlling answer hides its dependants, so only the key itself is asserted.
    expect(errorsFor({ [key]: '' })[key]).toEqual([message]);
  });

  it('treats whitespace as empty', () => {
    expect(errorsFor({ first_name: '   ' }).first_name).toEqual(['First/Given Name']);
  });

  it('requires legal_agree to be ticked, not merely answered', () => {
    expect(errorsFor({ legal_agree: 'false' }).legal_agree).toHaveLength(1);
    expect(errorsFor({ legal_agree: 'true' }).legal_agree).toBeUndefined();
  });

  it('uses the partner short name in the applied_major message', () => {
    const partner = { ...DEFAULT_PARTNER, shortSchoolName: 'Westfield' };
    expect(errorsFor({ applied_major: '' }, { partner }).applied_major).toEqual([
      'What do you plan to major in at Westfield?',
    ]);
  });
});

describe('phones', () => {
  it.each([
    ['(217) 555-0100', true],
    ['(999) 999-9999', true],
    ['(217) 255-0100', true],
    ['(017) 555-0100', false],
    ['(117) 555-0100', false],
    ['(217) 055-0100', false],
    ['(217) 155-0100', false],
    ['2175550100', false],
    ['(217) 555-010', false],
    ['(217)555-0100', false],
  ])('home %s valid=%s', (phone, valid) => {
    const expected = valid ? undefined : [MESSAGES.phoneHomeInvalid];
    expect(errorsFor({ phone_home: phone }).phone_home).toEqual(expected);
  });

  it.each([
    ['phone_mobile', MESSAGES.phoneMobileInvalid],
    ['parent_phone', 'Parent 1/Guardian 1: Please enter a valid phone number.'],
    ['parent_2_phone', 'Parent 2/Guardian 2: Please enter a valid phone number.'],
  ])('%s with area code 1xx gives its message', (key, message) => {
    expect(errorsFor({ [key]: '(117) 555-0100' })[key]).toEqual([message]);
    expect(errorsFor({ [key]: '(217) 555-0100' })[key]).toBeUndefined();
  });

  it.each([
    [{ phone_home: '', phone_mobile: '', phone_international: '' }, [MESSAGES.phoneRequired]],
    [{ phone_home: '', phone_mobile: '(217) 555-0101', phone_international: '' }, undefined],
    [{ phone_home: '', phone_mobile: '', phone_international: '+44 20 7946 0958' }, undefined],
    [{ phone_home: '(217) 555-0100', phone_mobile: '', phone_international: '' }, undefined],
  ])('at least one phone: %o', (patch, expected) => {
    expect(errorsFor({ ...patch, optin_sms_ind: 'false' }).phone_home).toEqual(expected);
  });

  it('requires a cell phone for text message updates', () => {
    expect(errorsFor({ phone_mobile: '', optin_sms_ind: 'true' }).phone_mobile).toEqual([
      MESSAGES.phoneMobileForSms,
    ]);
    expect(errorsFor({ phone_mobile: '', optin_sms_ind: 'false' }).phone_mobile).toBeUndefined();
    expect(errorsFor({ phone_mobile: '', optin_sms_ind: '' }).phone_mobile).toBeUndefined();
  });
});

describe('birth date (today is 2026-06-15)', () => {
  const tooYoung = 'You must be 13 years or older to apply.';
  it.each([
    ['2013-06-15', undefined], // 13 today
    ['2013-06-16', [tooYoung]], // 13 tomorrow
    ['2026-06-15', [tooYoung]],
    ['2030-01-01', [tooYoung]],
    ['1926-06-15', undefined], // exactly 100 years ago
    ['1926-06-14', [MESSAGES.birthDateTooOld]], // one day more
    ['1900-01-01', [MESSAGES.birthDateTooOld]],
    ['2008-02-30', [MESSAGES.birthDateInvalid]],
    ['2008-13-01', [MESSAGES.birthDateInvalid]],
    ['03/02/2008', [MESSAGES.birthDateInvalid]],
    ['yesterday', [MESSAGES.birthDateInvalid]],
    ['', ['Date of Birth']],
  ])('%s gives %o', (birthDate, expected) => {
    expect(errorsFor({ birth_date: birthDate }).birth_date).toEqual(expected);
  });

  it('fills {n} with the minimum age', () => {
    expect(MESSAGES.birthDateTooYoung).toContain('{n}');
    expect(errorsFor({ birth_date: '2020-01-01' }).birth_date?.[0]).not.toContain('{n}');
  });

  it('counts a 29 February birthday on 1 March in other years', () => {
    const now = new Date('2025-02-28T12:00:00Z');
    expect(errorsFor({ birth_date: '2012-02-29' }, { now }).birth_date).toEqual([tooYoung]);
    const nextDay = new Date('2025-03-01T12:00:00Z');
    expect(errorsFor({ birth_date: '2012-02-29' }, { now: nextDay }).birth_date).toBeUndefined();
  });
});

describe('address state and ZIP by country', () => {
  it.each([
    [{ country: 'USA', zip: '1234' }, [MESSAGES.zipTooShort]],
    [{ country: 'USA', zip: '12345' }, undefined],
    [{ country: 'USA', zip: '12345-6789' }, undefined],
    [{ country: 'USA', zip: '' }, ['ZIP/Postal Code']],
    [{ country: 'CAN', zip: '', state: 'ON' }, undefined],
    [{ country: 'CAN', zip: 'K1A', state: 'ON' }, undefined],
    [{ country: 'GBR', zip: 'SW1', state: '' }, undefined],
  ])('zip %o', (patch, expected) => {
    expect(errorsFor(patch).zip).toEqual(expected);
  });

  it.each([
    [{ country: 'USA', state: '' }, ['State/Province']],
    [{ country: 'CAN', state: '' }, ['State/Province']],
    [{ country: 'MEX', state: '' }, undefined],
    [{ country: 'CAN', state: 'QC' }, undefined],
    [{ country: 'CAN', state: 'IL' }, [MESSAGES.optionInvalid]],
    [{ country: 'USA', state: 'AE' }, undefined],
  ])('state %o', (patch, expected) => {
    expect(errorsFor(patch).state).toEqual(expected);
  });

  it('applies the same rules to the mailing address', () => {
    expect(errorsFor({ mailing_zip: '6060' }).mailing_zip).toEqual([MESSAGES.zipTooShort]);
    expect(errorsFor({ mailing_state: '' }).mailing_state).toEqual(['State/Province']);
  });
});

describe('mailing address effective date window (2022 to 2029 in 2026)', () => {
  it.each([
    ['2022-01-01', undefined],
    ['2021-12-31', [minimumYearMessage(2022)]],
    ['2029-12-31', undefined],
    ['2030-01-01', [maximumYearMessage(2029)]],
    ['2026-02-29', [MESSAGES.dateInvalid]],
    ['', ['On what date should we begin using this address?']],
  ])('%s gives %o', (date, expected) => {
    expect(errorsFor({ mailing_addr_effective_date: date }).mailing_addr_effective_date).toEqual(
      expected,
    );
  });

  it('spells the messages out with the year', () => {
    expect(minimumYearMessage(2022)).toBe('The minimum supported year is 2022.');
    expect(maximumYearMessage(2029)).toBe('The maximum supported year is 2029.');
  });

  it('is not checked when the mailing address is the permanent one', () => {
    const errors = errorsFor({
      mailing_addr_same_as_perm_addr: 'Y',
      mailing_addr_effective_date: '1990-01-01',
    });
    expect(errors.mailing_addr_effective_date).toBeUndefined();
  });
});

describe('citizenship-dependent fields', () => {
  const dependent = [
    'ssn',
    'citizenship',
    'dual_citizen_country',
    'dual_2_citizen_country',
    'birth_city',
    'address_home_country',
  ];
  const blank = Object.fromEntries(dependent.map((k) => [k, '']));
  it.each([
    ['1', { ssn: [MESSAGES.ssnInvalid] }],
    ['2', { ssn: [MESSAGES.ssnInvalid], citizenship: ['What is your country of citizenship?'] }],
    [
      '3',
      {
        dual_citizen_country: ['First Country of Citizenship'],
        dual_2_citizen_country: ['Second Country of Citizenship'],
      },
    ],
    [
      '4',
      {
        citizenship: ['What is your country of citizenship?'],
        birth_city: ['What is your city of birth?'],
        address_home_country: ['Please provide a permanent address in your home country.'],
      },
    ],
  ])('citizenship_type %s requires %o', (type, expected) => {
    const errors = errorsFor({ ...blank, citizenship_type: type });
    const relevant = Object.fromEntries(
      Object.entries(errors).filter(([key]) => dependent.includes(key)),
    );
    expect(relevant).toEqual(expected);
  });

  it.each([
    ['123-45-6789', undefined],
    ['123456789', [MESSAGES.ssnInvalid]],
    ['123-45-678', [MESSAGES.ssnInvalid]],
    ['12a-45-6789', [MESSAGES.ssnInvalid]],
  ])('ssn %s', (ssn, expected) => {
    expect(errorsFor({ ssn }).ssn).toEqual(expected);
  });

  it('refuses the USA as another country of citizenship', () => {
    const errors = errorsFor({ citizenship_type: '2', citizenship: 'USA' });
    expect(errors.citizenship).toEqual([MESSAGES.optionInvalid]);
    expect(errorsFor({ citizenship_type: '2', citizenship: 'MEX' }).citizenship).toBeUndefined();
  });
});

describe('e-mail addresses', () => {
  it.each([
    [{ parent_communication_preference: '' }, undefined, undefined],
    [{ parent_communication_preference: '1' }, [PARENT_1_EMAIL], undefined],
    [{ parent_communication_preference: '2' }, [PARENT_1_EMAIL], [PARENT_2_EMAIL]],
  ])('communication preference %o', (patch, parent1, parent2) => {
    const errors = errorsFor({ ...patch, parent_email_address: '', parent_2_email_address: '' });
    expect(errors.parent_email_address).toEqual(parent1);
    expect(errors.parent_2_email_address).toEqual(parent2);
  });

  it('checks the format of parent e-mails whenever given', () => {
    const errors = errorsFor({
      parent_communication_preference: '',
      parent_email_address: 'rosa@',
      parent_2_email_address: 'luis example.com',
    });
    expect(errors.parent_email_address).toEqual([PARENT_1_EMAIL]);
    expect(errors.parent_2_email_address).toEqual([PARENT_2_EMAIL]);
  });

  it.each([
    ['dlee@school.org', undefined],
    ['', undefined],
    ['dlee@school', [MESSAGES.counselorEmailInvalid]],
    ['dlee school.org', [MESSAGES.counselorEmailInvalid]],
  ])('counselor e-mail %s', (email, expected) => {
    expect(errorsFor({ counselor_email_address: email }).counselor_email_address).toEqual(expected);
  });
});

describe('accelerated programs', () => {
  it('requires step_level only for early assurance 12', () => {
    expect(errorsFor({ early_assurance: '12', step_level: '' }).step_level).toEqual([
      'Which STEP level are you applying for?',
    ]);
    expect(errorsFor({ early_assurance: '3', step_level: '' }).step_level).toBeUndefined();
  });

  const noStatement = { business_statement_doc: '', business_statement_essay: '', step_level: '1' };
  it.each(['15', '3', '5', '7', '8', '11', '12'])(
    'early assurance %s asks for the business statement',
    (code) => {
      expect(errorsFor({ ...noStatement, early_assurance: code }).business_statement_doc).toEqual([
        MESSAGES.businessStatement,
      ]);
      const withEssay = errorsFor({
        ...noStatement,
        early_assurance: code,
        business_statement_essay: 'Because…',
      });
      expect(withEssay.business_statement_doc).toBeUndefined();
      const withDoc = errorsFor({
        ...noStatement,
        early_assurance: code,
        business_statement_doc: 'ANSWERED',
      });
      expect(withDoc.business_statement_doc).toBeUndefined();
    },
  );

  it.each(['N', ''])('early assurance %o needs no statement', (code) => {
    const errors = errorsFor({ ...noStatement, early_assurance: code });
    expect(errors.business_statement_doc).toBeUndefined();
    expect(errors.business_statement_essay).toBeUndefined();
  });

  it('puts the message on the essay when the essay tab is chosen', () => {
    const errors = errorsFor(
      { ...noStatement, early_assurance: '5' },
      { context: { tabs: { business_statement: 'essay' } } },
    );
    expect(errors.business_statement_essay).toEqual([MESSAGES.businessStatement]);
    expect(errors.business_statement_doc).toBeUndefined();
  });
});

describe('majors', () => {
  const acknowledgements: [string, string, string][] = [
    ['ARS', 'confirm_acknowledgement_art', 'art majors require a portfolio review'],
    ['AEN', 'confirm_acknowledgement_art', 'art majors require a portfolio review'],
    ['DAN', 'confirm_acknowledgement_dance', 'the dance major requires an audition'],
    ['MUS', 'confirm_acknowledgement_music', 'music majors require an audition'],
    ['MUE', 'confirm_acknowledgement_music', 'music majors require an audition'],
    ['THE', 'confirm_acknowledgement_theater', 'the theater major requires an audition'],
    ['1', 'confirm_acknowledgement_socialwork', 'social work major requires a portfolio review'],
  ];
  it.each(acknowledgements)('major %s requires ticking %s', (major, key, wording) => {
    const base = {
      applied_major: major,
      primary_instrument: 'VOICE',
      applied_major_concentration: 'ACT',
    };
    const unticked = errorsFor({ ...base, [key]: '' })[key];
    expect(unticked).toHaveLength(1);
    expect(unticked?.[0]).toContain(wording);
    expect(errorsFor({ ...base, [key]: 'false' })[key]).toEqual(unticked);
    expect(errorsFor({ ...base, [key]: 'true' })[key]).toBeUndefined();
  });

  it('asks no acknowledgement of other majors', () => {
    const errors = errorsFor({ applied_major: 'BIO' });
    expect(Object.keys(errors).filter((k) => k.startsWith('confirm_'))).toEqual([]);
  });

  it.each([
    ['MUS', ['Primary Instrument (including voice)']],
    ['MUE', ['Primary Instrument (including voice)']],
    ['THE', undefined],
  ])('primary instrument for %s', (major, expected) => {
    const errors = errorsFor({
      applied_major: major,
      primary_instrument: '',
      confirm_acknowledgement_music: 'true',
      confirm_acknowledgement_theater: 'true',
      applied_major_concentration: 'ACT',
    });
    expect(errors.primary_instrument).toEqual(expected);
  });

  it('requires a concentration for theater only', () => {
    const theater = { applied_major: 'THE', confirm_acknowledgement_theater: 'true' };
    expect(
      errorsFor({ ...theater, applied_major_concentration: '' }).applied_major_concentration,
    ).toEqual(['Concentration']);
    expect(
      errorsFor({ applied_major: 'MUS', applied_major_concentration: '' })
        .applied_major_concentration,
    ).toBeUndefined();
  });
});

describe('disciplinary comments', () => {
  it.each([
    ['conviction', 'conviction_comment'],
    ['suspended', 'suspended_comment'],
  ])('%s Y requires %s', (question, comment) => {
    expect(errorsFor({ [question]: 'Y', [comment]: '' })[comment]).toHaveLength(1);
    expect(errorsFor({ [question]: 'Y', [comment]: 'In 2024 ...' })[comment]).toBeUndefined();
    expect(errorsFor({ [question]: 'N', [comment]: '' })[comment]).toBeUndefined();
  });
});

describe('lengths', () => {
  it.each([
    ['first_name', 45],
    ['city', 45],
    ['conviction_comment', 1500],
    ['personal_statement_essay', 7000],
  ])('%s accepts %i characters and no more', (key, limit) => {
    const patch = { conviction: 'Y' };
    expect(errorsFor({ ...patch, [key]: 'x'.repeat(limit) })[key]).toBeUndefined();
    expect(errorsFor({ ...patch, [key]: 'x'.repeat(limit + 1) })[key]).toEqual([
      tooLongMessage(limit),
    ]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(errorsFor({ first_name: '😀'.repeat(45) }).first_name).toBeUndefined();
  });

  it('takes the essay limit from the partner', () => {
    const partner = { ...DEFAULT_PARTNER, textAreaLimit: 100 };
    const errors = errorsFor({ personal_statement_essay: 'x'.repeat(101) }, { partner });
    expect(errors.personal_statement_essay).toEqual([tooLongMessage(100)]);
  });

  it('bounds companions too', () => {
    expect(errorsFor({ gender_desc: 'x'.repeat(256) }).gender_desc).toEqual([tooLongMessage(255)]);
  });
});

describe('month-year fields combine their errors', () => {
  it('reports a month without a year once, on the month key', () => {
    const errors = errorsFor({ grad_month: '6', grad_year: '' });
    expect(errors.grad_month).toEqual([MESSAGES.monthYearIncomplete]);
    expect(errors.grad_year).toBeUndefined();
  });

  it('reports a year without a month on the month key', () => {
    expect(errorsFor({ grad_month: '', grad_year: '2026' }).grad_month).toEqual([
      MESSAGES.monthYearIncomplete,
    ]);
  });

  it('removes duplicate messages when both parts are out of range', () => {
    expect(errorsFor({ grad_month: '13', grad_year: '1900' }).grad_month).toEqual([
      MESSAGES.optionInvalid,
    ]);
  });

  it('accepts years in the list and refuses those outside it', () => {
    // Graduation years run from 2016 to 2030 in 2026.
    expect(errorsFor({ grad_year: '2016' }).grad_month).toBeUndefined();
    expect(errorsFor({ grad_year: '2030' }).grad_month).toBeUndefined();
    expect(errorsFor({ grad_year: '2015' }).grad_month).toEqual([MESSAGES.optionInvalid]);
    expect(errorsFor({ grad_year: '2031' }).grad_month).toEqual([MESSAGES.optionInvalid]);
  });
});

describe('hidden questions', () => {
  it('are not validated', () => {
    const errors = errorsFor({
      citizenship_type: '1',
      birth_city: 'x'.repeat(200),
      dual_citizen_country: 'NOPE',
      conviction: 'N',
      conviction_comment: 'x'.repeat(5000),
    });
    expect(errors).toEqual({});
  });

  it('include tests of a student who does not plan to submit scores', () => {
    expect(errorsFor({ test_taken_ind: 'N', sat_intended_year: '1999' })).toEqual({});
  });
});

describe('choice values', () => {
  it.each([
    ['gender', 'Q'],
    ['country', 'US'],
    ['applied_major', 'XYZ'],
    ['legal_agree', 'yes'],
    ['honors_statement_doc', 'maybe'],
  ])('%s refuses %s', (key, value) => {
    expect(errorsFor({ [key]: value })[key]).toContain(MESSAGES.optionInvalid);
  });

  it('accepts free text in an autocomplete', () => {
    expect(errorsFor({ hs_name: 'A school not in the list' }).hs_name).toBeUndefined();
  });
});
