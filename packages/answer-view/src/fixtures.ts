// Named answer sets shared by the unit tests, the parity test (web print view vs PDF), the e2e
// tests and the PDF benchmark. Each is a whole application a real applicant could submit: it
// passes validateAnswers and checkAnswerPatch (test/fixtures.test.ts), so the e2e helpers can
// seed it through PUT /api/answer and submit it. Years are counted from `now`, so a fixture stays
// valid as the calendar moves; choice answers get their `_desc` companions as the SPA writes them.
import {
  APPLICATION_DEFINITION,
  compileDefinition,
  companionKey,
  DEFAULT_PARTNER,
  describeOption,
  isChoiceType,
  type ApplicationDefinition,
  type OptionContext,
  type PartnerConfig,
} from '@admissions/form';
import { buildAnswerView, type DocumentRecord } from './build-answer-view';
import type { AnswerView } from './view-model';

export type AnswerFixtureName =
  'us-citizen' | 'international' | 'add-another' | 'essay-tab' | 'unicode' | 'complete';

export interface AnswerFixture {
  name: AnswerFixtureName;
  description: string;
  /** What PUT /api/answer would hold: values with their `_desc` companions. */
  answers: Readonly<Record<string, string>>;
  /** PUT /api/add-another: button id → number of blocks. */
  addAnother: Readonly<Record<string, number>>;
  /** PUT /api/tabs: tab group id → chosen tab. */
  tabs: Readonly<Record<string, string>>;
  /** Converted documents by `*_doc` key (the answer of each is ANSWERED). */
  documents: Readonly<Record<string, DocumentRecord>>;
  /**
   * Keys saved in `answers` whose questions are hidden by other answers (as after an applicant
   * changes their mind). Their values contain "HIDDEN" and must appear in no rendering.
   */
  hiddenKeys: readonly string[];
}

type Draft = Record<string, string>;

/** Adds the `_desc` companion of every choice answer, as buildAnswerPatch writes it. */
export function withCompanions(
  answers: Readonly<Record<string, string>>,
  { now = new Date(), partner = DEFAULT_PARTNER, definition = APPLICATION_DEFINITION } = {},
): Record<string, string> {
  const { byAnswerKey } = compileDefinition(definition);
  const context: OptionContext = { answers, now, partner };
  const result: Record<string, string> = { ...answers };
  for (const [key, value] of Object.entries(answers)) {
    const found = byAnswerKey.get(key);
    if (!found || !isChoiceType(found.entry.question.type)) continue;
    const { question } = found.entry;
    const source =
      found.owned.role === 'value'
        ? question.options
        : found.owned.role === 'year'
          ? question.yearOptions
          : undefined;
    if (!source) continue;
    result[companionKey(key)] = describeOption(source, value, context);
  }
  return result;
}

function address(
  prefix: string,
  a: { line1: string; city: string; state?: string; zip: string; country: string },
): Draft {
  return {
    [`${prefix}address_line_1`]: a.line1,
    [`${prefix}city`]: a.city,
    ...(a.state ? { [`${prefix}state`]: a.state } : {}),
    [`${prefix}zip`]: a.zip,
    [`${prefix}country`]: a.country,
  };
}

function highSchool(
  prefix: string,
  s: {
    name: string;
    ceeb?: string;
    line1: string;
    city: string;
    state?: string;
    zip: string;
    country: string;
  },
  from: [number, number],
  to: [number, number],
): Draft {
  return {
    [`${prefix}name`]: s.name,
    ...(s.ceeb ? { [`${prefix}ceeb`]: s.ceeb } : {}),
    ...address(prefix, s),
    [`${prefix}attend_from_month`]: String(from[0]),
    [`${prefix}attend_from_year`]: String(from[1]),
    [`${prefix}attend_to_month`]: String(to[0]),
    [`${prefix}attend_to_year`]: String(to[1]),
  };
}

const FINAL_STEPS_CLEAN: Draft = {
  conviction: 'N',
  suspended: 'N',
  counselor_waiver_request: 'Y',
  legal_agree: 'true',
};

const ESSAY = (topic: string, times: number) =>
  Array.from(
    { length: times },
    (_, i) =>
      `${topic} (${i + 1}) I kept a notebook of what worked and what did not, and I learned to ask for help early.`,
  ).join(' ');

/**
 * Exactly `length` characters (code points) of multilingual prose in paragraphs: Latin with
 * diacritics, Greek, Cyrillic and CJK, so fonts and line breaking are exercised together.
 */
export function buildLongStatement(length: number): string {
  const sentences = [
    'When my grandmother Zoë moved from Łódź to Shanghai, she carried one suitcase and three languages.',
    'Η γιαγιά μου έλεγε πάντα ότι η γνώση είναι το μόνο φορτίο που δεν βαραίνει.',
    'Мой дедушка Дмитрий учил меня шахматам по вечерам, и я понял, что терпение важнее скорости.',
    '我在上海长大，每天放学后都去图书馆读书，那里是我最喜欢的地方。',
    'At school I started a tutoring club for students who, like me, were learning in a second language.',
    'We met every Thursday; by spring we were forty students, and the café next door gave us a corner table.',
    'Ελπίζω να συνεχίσω αυτό το έργο στο πανεπιστήμιο, βοηθώντας άλλους να βρουν τη φωνή τους.',
    'Я хочу изучать информатику и лингвистику, чтобы создавать инструменты для перевода.',
    '我相信语言是连接人与人之间的桥梁。',
    'Naïve as it sounds, I believe a good question asked in the right language can change a life.',
  ];
  const paragraphs: string[] = [];
  let total = 0;
  let i = 0;
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) paragraphs.push(current.join(' '));
    current = [];
  };
  for (;;) {
    const sentence = sentences[i % sentences.length] ?? '';
    // Each sentence costs its length plus one separator (a space, or a paragraph break later).
    const cost = [...sentence].length + 2;
    if (total + cost > length) break;
    current.push(sentence);
    total += cost;
    i += 1;
    if (i % 5 === 0) flush();
  }
  flush();
  let text = paragraphs.join('\n\n');
  const chars = [...text];
  // Fill up to the exact length with a closing line of the right size.
  const missing = length - chars.length;
  if (missing > 0) {
    const closing = '\n\n' + '— Zoë Łukasz 王小明 Дмитрий. Ευχαριστώ. '.repeat(10);
    text += [...closing].slice(0, missing).join('');
  } else if (missing < 0) {
    text = chars.slice(0, length).join('');
  }
  return text;
}

/** Every fixture, built for the calendar year of `now` (UTC). */
export function createAnswerFixtures(
  now: Date = new Date(),
  partner: PartnerConfig = DEFAULT_PARTNER,
  definition: ApplicationDefinition = APPLICATION_DEFINITION,
): Readonly<Record<AnswerFixtureName, AnswerFixture>> {
  const y = now.getUTCFullYear();
  const firstTerm = partner.entryTerms[0]?.value ?? '';
  const finish = (fixture: Omit<AnswerFixture, 'answers'> & { answers: Draft }): AnswerFixture => ({
    ...fixture,
    answers: withCompanions(fixture.answers, { now, partner, definition }),
  });

  const usCitizen = finish({
    name: 'us-citizen',
    description: 'A U.S. citizen with one parent and one high school, essay typed in.',
    addAnother: {},
    tabs: { personal_statement: 'essay' },
    documents: {},
    hiddenKeys: ['sibling_admission_name', 'birth_city'],
    answers: {
      first_name: 'Jordan',
      middle_name: 'Avery',
      last_name: 'Smith',
      phone_home: '(217) 555-0142',
      phone_mobile: '(217) 555-0143',
      optin_sms_ind: 'false',
      birth_date: `${y - 18}-03-02`,
      gender: 'M',
      birth_country: 'USA',
      email_address: 'jordan.smith@example.com',
      ...address('', {
        line1: '12 Elm Street',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'USA',
      }),
      mailing_addr_same_as_perm_addr: 'Y',
      citizenship_type: '1',
      aid_eligible: 'Y',
      ssn: '123-45-6789',
      // Saved while the applicant briefly chose "International": hidden now.
      birth_city: 'HIDDEN-Lyon',
      native_language: 'Y',
      ethnicity: 'N',
      race_white: 'true',
      race_black: 'true',
      race_asian: 'false',
      parent_communication_preference: '1',
      parent_relationship: 'M',
      parent_first_name: 'Karen',
      parent_last_name: 'Smith',
      parent_email_address: 'karen.smith@example.com',
      parent_phone: '(217) 555-0144',
      parent_education: '5',
      parent_college_name: 'University of Illinois',
      parent_addr_same_as_stu_perm: 'Y',
      sibling_admission: 'N',
      sibling_admission_name: 'HIDDEN Sibling Smith',
      entry_term: firstTerm,
      living_plans: 'ON',
      financial_aid: 'Y',
      classes_taken: 'N',
      early_assurance: 'N',
      joint_degree: 'N',
      applied_major_preprof: 'PREMED',
      applied_major: 'BIO',
      special_programs: 'NONE',
      ...highSchool(
        'hs_',
        {
          name: 'Abraham Lincoln High School',
          ceeb: '990001',
          line1: '1200 Prairie Avenue',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          country: 'USA',
        },
        [9, y - 3],
        [6, y + 1],
      ),
      counselor_first_name: 'Dana',
      counselor_last_name: 'Lee',
      counselor_email_address: 'dlee@lincoln.example.org',
      grad_month: '6',
      grad_year: String(y + 1),
      test_taken_ind: 'Y',
      sat_taken: 'Y',
      sat_taken_again: 'N',
      act_taken: 'N',
      act_plan_month: '10',
      act_plan_year: String(y + 1),
      act_taken_unsure: 'false',
      personal_statement_essay: ESSAY('Running the school food drive taught me to plan.', 12),
      ...FINAL_STEPS_CLEAN,
    },
  });

  const international = finish({
    name: 'international',
    description: 'An international student (citizenship type 4) with TOEFL and IELTS scores.',
    addAnother: {},
    tabs: { personal_statement: 'essay' },
    documents: {},
    hiddenKeys: ['f1_visa_explain'],
    answers: {
      first_name: 'Priya',
      last_name: 'Raman',
      preferred_name: 'Priya',
      phone_international: '+91 98765 43210',
      birth_date: `${y - 18}-11-20`,
      gender: 'F',
      gender_iden: 'W',
      preferred_pronoun: 'SHE',
      birth_country: 'IND',
      email_address: 'priya.raman@example.com',
      ...address('', {
        line1: '14 Lake View Road',
        city: 'Chennai',
        zip: '600001',
        country: 'IND',
      }),
      mailing_addr_same_as_perm_addr: 'Y',
      citizenship_type: '4',
      citizenship: 'IND',
      birth_city: 'Chennai',
      address_home_country: '14 Lake View Road\nT. Nagar\nChennai 600001\nIndia',
      domestic_length: '0',
      citizenship_visa_status: 'F1',
      f1_visa: 'Y',
      // Written when the applicant first answered "No": hidden since they chose "Yes".
      f1_visa_explain: 'HIDDEN explanation of immigration status',
      agency_flag: 'N',
      native_language: 'N',
      native_language_select: 'ta',
      home_language: 'ta',
      primary_language: 'en',
      parent_communication_preference: '1',
      parent_relationship: 'F',
      parent_first_name: 'Suresh',
      parent_last_name: 'Raman',
      parent_email_address: 'suresh.raman@example.com',
      parent_education: '6',
      parent_college_name: 'Anna University',
      parent_addr_same_as_stu_perm: 'Y',
      entry_term: firstTerm,
      living_plans: 'ON',
      financial_aid: 'N',
      classes_taken: 'Y',
      early_assurance: 'N',
      joint_degree: 'Y',
      applied_major_preprof: 'NONE',
      applied_major: 'CSC',
      secondary_major: 'MAT',
      special_programs: 'NONE',
      ...highSchool(
        'hs_',
        {
          name: 'Chettinad Vidyashram',
          line1: '1 Rani Meyyammai Road',
          city: 'Chennai',
          zip: '600028',
          country: 'IND',
        },
        [6, y - 3],
        [4, y + 1],
      ),
      grad_month: '4',
      grad_year: String(y + 1),
      test_taken_ind: 'Y',
      sat_taken: 'N',
      sat_plan_month: '12',
      sat_plan_year: String(y),
      act_taken: 'N',
      act_taken_unsure: 'true',
      toefl_taken: 'Y',
      toefl_score: '108',
      toefl_taken_again: 'N',
      duolingo_taken: 'N',
      duolingo_taken_unsure: 'true',
      ielts_taken: 'Y',
      ielts_score_overall: '7.5',
      ielts_taken_again: 'Y',
      ielts_intended_month: '3',
      ielts_intended_year: String(y + 1),
      personal_statement_essay: ESSAY('Building a Tamil spell-checker with my cousin.', 10),
      ...FINAL_STEPS_CLEAN,
    },
  });

  const addAnother = finish({
    name: 'add-another',
    description:
      'A permanent resident with two parents, three legacy relatives, two high schools, and documents uploaded on the upload tabs.',
    addAnother: { parents: 2, legacy: 3, high_schools: 2 },
    tabs: {
      personal_statement: 'upload',
      business_statement: 'upload',
      honors_statement: 'upload',
    },
    documents: {
      business_statement_doc: { file_name: 'business-statement.docx', file_size: 18_432 },
      honors_statement_doc: { file_name: 'honors-essay.pdf', file_size: 96_256 },
      personal_statement_doc: { file_name: 'personal-statement.pdf', file_size: 143_360 },
    },
    hiddenKeys: ['parent_2_education_other'],
    answers: {
      first_name: 'Mateo',
      last_name: 'García',
      phone_mobile: '(312) 555-0177',
      optin_sms_ind: 'true',
      birth_date: `${y - 17}-07-14`,
      gender: 'M',
      birth_country: 'MEX',
      email_address: 'mateo.garcia@example.com',
      ...address('', {
        line1: '455 Maple Court',
        city: 'Chicago',
        state: 'IL',
        zip: '60614',
        country: 'USA',
      }),
      address_line_2: 'Unit 2B',
      mailing_addr_same_as_perm_addr: 'Y',
      citizenship_type: '2',
      aid_eligible: 'Y',
      citizenship: 'MEX',
      alien_registration_number: 'A123456789',
      resident_number: 'IOE0123456789',
      ssn: '234-56-7890',
      native_language: 'N',
      native_language_select: 'es',
      home_language: 'es',
      primary_language: 'en',
      ethnicity: 'Y',
      parent_communication_preference: '2',
      parent_relationship: 'M',
      parent_prefix: 'MRS',
      parent_first_name: 'Lucía',
      parent_last_name: 'García',
      parent_email_address: 'lucia.garcia@example.com',
      parent_phone: '(312) 555-0178',
      parent_occupation: 'Accountant',
      parent_education: '5',
      parent_college_name: 'DePaul University',
      parent_addr_same_as_stu_perm: 'Y',
      parent_2_relationship: 'F',
      parent_2_first_name: 'Jorge',
      parent_2_last_name: 'García',
      parent_2_email_address: 'jorge.garcia@example.com',
      parent_2_education: '2',
      parent_2_education_other: 'HIDDEN trade school',
      parent_2_addr_same_as_stu_perm: 'N',
      ...address('parent_2_', {
        line1: '20 Reforma Avenue',
        city: 'Guadalajara',
        zip: '44100',
        country: 'MEX',
      }),
      sibling_admission: 'Y',
      sibling_admission_name: 'Sofía García',
      legacy_relationship: 'GP',
      legacy_first_name: 'Ramón',
      legacy_last_name: 'García',
      legacy_grad_year: String(y - 50),
      legacy_2_relationship: 'AU',
      legacy_2_first_name: 'Elena',
      legacy_2_middle_name: 'María',
      legacy_2_last_name: 'Ortiz',
      legacy_2_grad_year: String(y - 25),
      legacy_3_relationship: 'C',
      legacy_3_first_name: 'Diego',
      legacy_3_last_name: 'Ortiz',
      legacy_3_grad_year: String(y - 3),
      entry_term: firstTerm,
      living_plans: 'HOME',
      financial_aid: 'Y',
      classes_taken: 'Y',
      early_assurance: '5',
      business_statement_doc: 'ANSWERED',
      joint_degree: 'N',
      applied_major_preprof: 'NONE',
      applied_major: 'BUS',
      special_programs: 'HON',
      honors_statement_doc: 'ANSWERED',
      ...highSchool(
        'hs_',
        {
          name: 'Lincoln Park Academy',
          ceeb: '990002',
          line1: '44 Lakeview Road',
          city: 'Chicago',
          state: 'IL',
          zip: '60614',
          country: 'USA',
        },
        [9, y - 2],
        [6, y + 1],
      ),
      ...highSchool(
        'hs_2_',
        {
          name: 'Central High School',
          ceeb: '990013',
          line1: '100 Main Street',
          city: 'Omaha',
          state: 'NE',
          zip: '68102',
          country: 'USA',
        },
        [9, y - 3],
        [6, y - 2],
      ),
      counselor_first_name: 'Miriam',
      counselor_last_name: 'Okafor',
      counselor_email_address: 'mokafor@lpa.example.org',
      grad_month: '6',
      grad_year: String(y + 1),
      test_taken_ind: 'N',
      personal_statement_doc: 'ANSWERED',
      ...FINAL_STEPS_CLEAN,
    },
  });

  const essayTab = finish({
    name: 'essay-tab',
    description: 'Every statement typed on the essay tab: personal, business and Levermore.',
    addAnother: {},
    tabs: {
      personal_statement: 'essay',
      business_statement: 'essay',
      levermore_statement: 'essay',
    },
    documents: {},
    hiddenKeys: ['honors_statement_essay'],
    answers: {
      first_name: 'Grace',
      last_name: 'Kim',
      phone_home: '(646) 555-0190',
      birth_date: `${y - 18}-01-31`,
      gender: 'F',
      email_address: 'grace.kim@example.com',
      ...address('', {
        line1: '5250 Fieldston Road',
        city: 'Bronx',
        state: 'NY',
        zip: '10471',
        country: 'USA',
      }),
      mailing_addr_same_as_perm_addr: 'N',
      ...address('mailing_', {
        line1: 'PO Box 300',
        city: 'New York',
        state: 'NY',
        zip: '10001',
        country: 'USA',
      }),
      mailing_addr_effective_date: `${y}-09-01`,
      citizenship_type: '1',
      aid_eligible: 'N',
      ssn: '345-67-8901',
      native_language: 'Y',
      parent_communication_preference: '1',
      parent_relationship: 'LG',
      parent_first_name: 'Helen',
      parent_last_name: 'Kim',
      parent_email_address: 'helen.kim@example.com',
      parent_addr_same_as_stu_perm: 'Y',
      entry_term: firstTerm,
      living_plans: 'OFF',
      financial_aid: 'N',
      classes_taken: 'N',
      early_assurance: '3',
      business_statement_essay: ESSAY('Running the books for my family’s dry cleaner.', 6),
      joint_degree: 'Y',
      applied_major_preprof: 'PRELAW',
      applied_major: 'ACC',
      special_programs: 'LEV',
      levermore_statement_essay: ESSAY('Hosting exchange students from Seoul and São Paulo.', 5),
      // Typed while the Honors College was chosen; hidden since switching to Levermore.
      honors_statement_essay: 'HIDDEN honors essay from before the switch',
      ...highSchool(
        'hs_',
        {
          name: 'Riverdale Country School',
          ceeb: '990012',
          line1: '5250 Fieldston Road',
          city: 'Bronx',
          state: 'NY',
          zip: '10471',
          country: 'USA',
        },
        [9, y - 3],
        [6, y + 1],
      ),
      grad_month: '6',
      grad_year: String(y + 1),
      test_taken_ind: 'N',
      personal_statement_essay: ESSAY('Learning Korean from my grandmother’s recipes.', 14),
      ...FINAL_STEPS_CLEAN,
    },
  });

  const unicode = finish({
    name: 'unicode',
    description:
      'Zoë Łukasz 王小明 Дмитрий: a dual citizen whose answers mix Latin-extended, Greek, Cyrillic and CJK, with a 7,000-character statement.',
    addAnother: { parents: 2 },
    tabs: { personal_statement: 'essay' },
    documents: {},
    hiddenKeys: [],
    answers: {
      first_name: 'Zoë Łukasz',
      middle_name: 'Αλέξανδρος',
      last_name: '王小明 Дмитрий',
      preferred_name: 'Ζωή',
      phone_home: '(212) 555-0123',
      birth_date: `${y - 19}-05-09`,
      gender: 'F',
      gender_iden: 'N',
      preferred_pronoun: 'THEY',
      birth_country: 'POL',
      email_address: 'zoe.lukasz@example.com',
      ...address('', {
        line1: '18 Harbor Street',
        city: 'Annapolis',
        state: 'MD',
        zip: '21401',
        country: 'USA',
      }),
      address_line_2: 'Apartment Ω-3',
      mailing_addr_same_as_perm_addr: 'Y',
      citizenship_type: '3',
      aid_eligible: 'Y',
      dual_citizen_country: 'USA',
      dual_2_citizen_country: 'POL',
      native_language: 'N',
      native_language_select: 'pl',
      home_language: 'zh',
      primary_language: 'en',
      ethnicity: 'N',
      race_asian: 'true',
      race_white: 'true',
      parent_communication_preference: '2',
      parent_relationship: 'M',
      parent_first_name: 'Małgorzata',
      parent_last_name: 'Łukasz',
      parent_email_address: 'malgorzata@example.com',
      parent_occupation: 'Φαρμακοποιός',
      parent_employer: 'Apteka Świętego Ducha',
      parent_education: '6',
      parent_college_name: 'Uniwersytet Jagielloński',
      parent_addr_same_as_stu_perm: 'Y',
      parent_2_relationship: 'F',
      parent_2_first_name: '小明',
      parent_2_last_name: '王',
      parent_2_email_address: 'wang.xiaoming@example.com',
      parent_2_occupation: 'Инженер',
      parent_2_employer: '上海交通大学',
      parent_2_addr_same_as_stu_perm: 'Y',
      sibling_admission: 'Y',
      sibling_admission_name: 'Дмитрий Łukasz 王',
      entry_term: firstTerm,
      living_plans: 'ON',
      financial_aid: 'Y',
      classes_taken: 'Y',
      early_assurance: 'N',
      joint_degree: 'N',
      applied_major_preprof: 'NONE',
      applied_major: 'CSC',
      special_programs: 'NONE',
      ...highSchool(
        'hs_',
        {
          name: "St. Mary's Academy",
          ceeb: '990010',
          line1: '18 Harbor Street',
          city: 'Annapolis',
          state: 'MD',
          zip: '21401',
          country: 'USA',
        },
        [9, y - 3],
        [6, y + 1],
      ),
      counselor_first_name: 'Ελένη',
      counselor_last_name: 'Παπαδοπούλου',
      counselor_email_address: 'epapadopoulou@stmarys.example.org',
      grad_month: '6',
      grad_year: String(y + 1),
      test_taken_ind: 'N',
      personal_statement_essay: buildLongStatement(partner.textAreaLimit),
      ...FINAL_STEPS_CLEAN,
    },
  });

  // The benchmark: an international applicant (the citizenship type that shows the most) with
  // every block, every conditional question and every statement answered.
  const complete = finish({
    name: 'complete',
    description:
      'Every question a single applicant can see, answered: international, all add-another blocks, every test, essays on every statement.',
    addAnother: { parents: 2, legacy: 4, high_schools: 3 },
    tabs: {
      business_statement: 'essay',
      honors_statement: 'essay',
      honors_additional_statement: 'essay',
      personal_statement: 'essay',
    },
    documents: {},
    hiddenKeys: [],
    answers: {
      first_name: 'Amara',
      middle_name: 'Ngozi',
      last_name: 'Okonkwo-Lindqvist',
      preferred_name: 'Mara',
      phone_home: '(617) 555-0110',
      phone_mobile: '(617) 555-0111',
      optin_sms_ind: 'true',
      phone_international: '+46 8 123 456 78',
      birth_date: `${y - 18}-09-12`,
      gender: 'F',
      gender_iden: 'W',
      preferred_pronoun: 'SHE',
      birth_country: 'SWE',
      email_address: 'amara.okonkwo@example.com',
      ...address('', {
        line1: '77 Observatory Way',
        city: 'Cambridge',
        state: 'MA',
        zip: '02138',
        country: 'USA',
      }),
      address_line_2: 'Apartment 4C',
      mailing_addr_same_as_perm_addr: 'N',
      ...address('mailing_', {
        line1: 'PO Box 1208',
        city: 'Boston',
        state: 'MA',
        zip: '02108',
        country: 'USA',
      }),
      mailing_address_line_2: 'Attn: Amara Okonkwo',
      mailing_addr_effective_date: `${y}-08-15`,
      citizenship_type: '4',
      citizenship: 'SWE',
      birth_city: 'Gothenburg',
      address_home_country: 'Vasagatan 12\n411 24 Göteborg\nSweden',
      domestic_length: '3',
      domestic_location: 'Cambridge, Massachusetts',
      domestic_date: `${y - 4}-08-20`,
      citizenship_visa_status: 'OTHER',
      other_visa_status: 'G-4 International Organization',
      f1_visa: 'N',
      f1_visa_explain:
        'My mother works for an international organization, and I hold a G-4 visa as her dependant until I turn 21; I will change to F-1 status before then.',
      agency_flag: 'Y',
      agency_name: 'Nordic Pathways Education',
      agency_location: 'Stockholm, Sweden',
      native_language: 'N',
      native_language_select: 'sv',
      home_language: 'en',
      primary_language: 'en',
      ethnicity: 'N',
      race_american_indian: 'false',
      race_asian: 'false',
      race_black: 'true',
      race_native_hawaiian: 'false',
      race_white: 'true',
      parent_communication_preference: '2',
      parent_relationship: 'M',
      parent_prefix: 'DR',
      parent_first_name: 'Chiamaka',
      parent_last_name: 'Okonkwo',
      parent_email_address: 'chiamaka.okonkwo@example.org',
      parent_phone: '(617) 555-0112',
      parent_occupation: 'Epidemiologist',
      parent_employer: 'World Health Organization',
      parent_education: '7',
      parent_college_name: 'Karolinska Institute',
      parent_addr_same_as_stu_perm: 'N',
      ...address('parent_', {
        line1: '1 Harbor Plaza',
        city: 'Boston',
        state: 'MA',
        zip: '02110',
        country: 'USA',
      }),
      parent_address_line_2: 'Suite 900',
      parent_2_relationship: 'F',
      parent_2_prefix: 'MR',
      parent_2_first_name: 'Erik',
      parent_2_last_name: 'Lindqvist',
      parent_2_email_address: 'erik.lindqvist@example.se',
      parent_2_phone: '(617) 555-0113',
      parent_2_occupation: 'Carpenter',
      parent_2_employer: 'Lindqvist Snickeri AB',
      parent_2_education: '8',
      parent_2_education_other: 'Journeyman certificate in carpentry',
      parent_2_addr_same_as_stu_perm: 'N',
      ...address('parent_2_', {
        line1: 'Vasagatan 12',
        city: 'Göteborg',
        zip: '411 24',
        country: 'SWE',
      }),
      parent_2_address_line_2: 'Lägenhet 1102',
      sibling_admission: 'Y',
      sibling_admission_name: 'Kofi Okonkwo-Lindqvist',
      legacy_relationship: 'GP',
      legacy_first_name: 'Ingrid',
      legacy_middle_name: 'Maria',
      legacy_last_name: 'Lindqvist',
      legacy_grad_year: String(y - 52),
      legacy_2_relationship: 'AU',
      legacy_2_first_name: 'Adaeze',
      legacy_2_middle_name: 'Ifeoma',
      legacy_2_last_name: 'Okonkwo',
      legacy_2_grad_year: String(y - 27),
      legacy_3_relationship: 'C',
      legacy_3_first_name: 'Nils',
      legacy_3_middle_name: 'Olof',
      legacy_3_last_name: 'Berg',
      legacy_3_grad_year: String(y - 6),
      legacy_4_relationship: 'S',
      legacy_4_first_name: 'Kofi',
      legacy_4_middle_name: 'Emeka',
      legacy_4_last_name: 'Okonkwo-Lindqvist',
      legacy_4_grad_year: String(y - 1),
      entry_term: firstTerm,
      living_plans: 'ON',
      financial_aid: 'Y',
      classes_taken: 'Y',
      early_assurance: '12',
      step_level: '2',
      business_statement_essay: ESSAY('Running a carpentry workshop’s accounts at sixteen.', 8),
      joint_degree: 'Y',
      applied_major_preprof: 'PRELAW',
      applied_major: 'THE',
      secondary_major: 'ENG',
      applied_major_concentration: 'DTC',
      confirm_acknowledgement_theater: 'true',
      special_programs: 'HON',
      honors_statement_essay: ESSAY('Designing stage lighting with a microcontroller.', 12),
      honors_additional_statement_essay: ESSAY('Translating Nigerian plays into Swedish.', 6),
      ...highSchool(
        'hs_',
        {
          name: 'Thomas Jefferson Science Academy',
          ceeb: '990005',
          line1: '77 Observatory Way',
          city: 'Alexandria',
          state: 'VA',
          zip: '22312',
          country: 'USA',
        },
        [9, y - 2],
        [6, y + 1],
      ),
      ...highSchool(
        'hs_2_',
        {
          name: 'Lycée Français de Montréal',
          ceeb: '990027',
          line1: '3000 Chemin de la Côte',
          city: 'Montréal',
          state: 'QC',
          zip: 'H3T 1B4',
          country: 'CAN',
        },
        [9, y - 3],
        [6, y - 2],
      ),
      ...highSchool(
        'hs_3_',
        {
          name: 'Königin-Luise-Gymnasium',
          ceeb: '990029',
          line1: 'Schulstraße 12',
          city: 'Köln',
          zip: '50667',
          country: 'DEU',
        },
        [8, y - 5],
        [6, y - 3],
      ),
      counselor_first_name: 'Rebecca',
      counselor_last_name: 'Thornton',
      counselor_email_address: 'rthornton@tjsa.example.org',
      grad_month: '6',
      grad_year: String(y + 1),
      test_taken_ind: 'Y',
      sat_taken: 'Y',
      sat_taken_again: 'Y',
      sat_intended_month: '10',
      sat_intended_year: String(y + 1),
      act_taken: 'N',
      act_plan_month: '12',
      act_plan_year: String(y + 1),
      act_taken_unsure: 'false',
      toefl_taken: 'Y',
      toefl_score: '115',
      toefl_taken_again: 'Y',
      toefl_intended_month: '2',
      toefl_intended_year: String(y + 1),
      duolingo_taken: 'N',
      duolingo_plan_month: '1',
      duolingo_plan_year: String(y + 1),
      duolingo_taken_unsure: 'true',
      ielts_taken: 'Y',
      ielts_score_overall: '8.5',
      ielts_taken_again: 'Y',
      ielts_intended_month: '4',
      ielts_intended_year: String(y + 1),
      personal_statement_essay: ESSAY('Moving between four countries and five schools.', 40),
      conviction: 'Y',
      conviction_comment:
        'In ninth grade I received a citation for trespassing after climbing the fence of a closed skate park with friends. I completed eight hours of community service and the record was sealed.',
      suspended: 'Y',
      suspended_comment:
        'I was suspended for one day in tenth grade for leaving campus without permission to help a friend. I apologised to my teachers and have had no further incidents.',
      counselor_waiver_request: 'Y',
      legal_agree: 'true',
    },
  });

  return {
    'us-citizen': usCitizen,
    international,
    'add-another': addAnother,
    'essay-tab': essayTab,
    unicode,
    complete,
  };
}

/** The fixtures for today's calendar year. */
export const ANSWER_FIXTURES: Readonly<Record<AnswerFixtureName, AnswerFixture>> =
  createAnswerFixtures();

export const US_CITIZEN_FIXTURE = ANSWER_FIXTURES['us-citizen'];
export const INTERNATIONAL_FIXTURE = ANSWER_FIXTURES.international;
export const ADD_ANOTHER_FIXTURE = ANSWER_FIXTURES['add-another'];
export const ESSAY_TAB_FIXTURE = ANSWER_FIXTURES['essay-tab'];
export const UNICODE_FIXTURE = ANSWER_FIXTURES.unicode;
export const COMPLETE_FIXTURE = ANSWER_FIXTURES.complete;

/**
 * The fixture as the print view and the PDF show it, with the default partner: the view model
 * every renderer test and the benchmark lay out (`answers` replace some of the fixture's).
 */
export function buildFixtureView(
  fixture: AnswerFixture,
  answers: Readonly<Record<string, string>> = {},
): AnswerView {
  return buildAnswerView(
    APPLICATION_DEFINITION,
    { ...fixture.answers, ...answers },
    {
      partner: DEFAULT_PARTNER,
      addAnother: fixture.addAnother,
      tabs: fixture.tabs,
      documents: fixture.documents,
    },
  );
}
