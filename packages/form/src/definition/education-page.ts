import { when } from '../conditions';
import {
  ACKNOWLEDGEMENTS,
  BUSINESS_TRACK_CODES,
  CITIZENSHIP,
  EARLY_ASSURANCE_PROGRAMS,
  INSTRUMENTS,
  MAJOR,
  MAJORS,
  PRE_PROFESSIONAL_PATHWAYS,
  SPECIAL_PROGRAM,
  SPECIAL_PROGRAMS,
  STEP_LEVELS,
  STEP_TRACK_CODE,
  THEATER_CONCENTRATIONS,
} from '../codes';
import { MESSAGES } from '../messages';
import type { Option, Page, Question, Section } from '../types';
import {
  addressQuestions,
  autocomplete,
  checkbox,
  email,
  futureYears,
  monthYear,
  options,
  pastYears,
  radio,
  required,
  select,
  statementTabs,
  text,
  yesNo,
} from './builders';

export const HIGH_SCHOOL_PREFIXES = ['hs_', 'hs_2_', 'hs_3_'] as const;

const LIVING_PLANS: readonly Option[] = [
  { value: 'ON', label: 'On campus' },
  { value: 'HOME', label: 'Off campus, with family' },
  { value: 'OFF', label: 'Off campus, on my own' },
];

const plans: Section = {
  id: 'plans',
  title: 'Your Plans',
  questions: [
    select(
      'entry_term',
      'When do you plan to enroll?',
      { kind: 'partner', list: 'entryTerms' },
      {
        required: required(),
      },
    ),
    radio('living_plans', 'Where do you intend to live?', options(LIVING_PLANS), {
      required: required(),
    }),
    yesNo('financial_aid', 'Do you intend to apply for financial aid?'),
    yesNo('classes_taken', 'Have you taken college courses for credit while in high school?'),
  ],
};

const accelerated: Section = {
  id: 'accelerated',
  title: 'Accelerated Programs',
  questions: [
    select(
      'early_assurance',
      'Are you applying to an accelerated three-year business program?',
      options(EARLY_ASSURANCE_PROGRAMS),
    ),
    select('step_level', 'Which STEP level are you applying for?', options(STEP_LEVELS), {
      showWhen: when.equals('early_assurance', STEP_TRACK_CODE),
      required: required(),
    }),
    ...statementTabs(
      'business_statement',
      'In about 250 words, tell us why you want to pursue the accelerated three-year business track.',
      { showWhen: when.in('early_assurance', BUSINESS_TRACK_CODES) },
    ),
    yesNo(
      'joint_degree',
      'Are you interested in a joint bachelor\u2019s and master\u2019s degree?',
    ),
  ],
};

const special = (program: string) => when.equals('special_programs', program);

const majors: Section = {
  id: 'majors',
  title: 'Your Major',
  questions: [
    select(
      'applied_major_preprof',
      'You may also indicate your interest in a general pre-professional pathway below.',
      options(PRE_PROFESSIONAL_PATHWAYS),
      { required: required() },
    ),
    select('applied_major', 'What do you plan to major in at {shortSchoolName}?', options(MAJORS), {
      required: required(),
    }),
    select('secondary_major', 'Second major (optional)', options(MAJORS)),
    yesNo('nurse_enrollment', 'Are you applying for direct entry into the nursing program?', {
      showWhen: when.equals('applied_major', MAJOR.nursing),
    }),
    select('primary_instrument', 'Primary Instrument (including voice)', options(INSTRUMENTS), {
      showWhen: when.in('applied_major', [MAJOR.music, MAJOR.musicEducation]),
      required: required(),
    }),
    select(
      'applied_major_concentration',
      'Concentration',
      {
        kind: 'dependent',
        key: 'applied_major',
        byValue: { [MAJOR.theater]: options(THEATER_CONCENTRATIONS) },
      },
      { required: required() },
    ),
    ...ACKNOWLEDGEMENTS.map((a): Question =>
      checkbox(a.key, a.label, {
        showWhen: when.in('applied_major', a.majors),
        required: required(undefined, a.message),
      }),
    ),
    select('special_programs', 'Are you applying to a special program?', options(SPECIAL_PROGRAMS)),
    ...statementTabs(
      'honors_statement',
      'Honors College statement: describe an intellectual interest you have pursued beyond the classroom.',
      { showWhen: special(SPECIAL_PROGRAM.honors) },
    ),
    ...statementTabs(
      'honors_additional_statement',
      'Honors College additional statement (optional): anything else you would like the Honors College to know.',
      { showWhen: special(SPECIAL_PROGRAM.honors) },
    ),
    checkbox(
      'bridges_acknowledgement',
      'I understand that the Bridges Program includes a required summer session before my first semester.',
      { showWhen: special(SPECIAL_PROGRAM.bridges) },
    ),
    yesNo('learning_resource', 'Do you have a documented learning difference?', {
      showWhen: special(SPECIAL_PROGRAM.learningResource),
    }),
    ...statementTabs(
      'support_statement',
      'Describe the academic support that has helped you succeed.',
      { showWhen: special(SPECIAL_PROGRAM.learningResource) },
    ),
    ...statementTabs(
      'levermore_statement',
      'Levermore Global Scholars statement: how would you contribute to a globally minded community?',
      { showWhen: special(SPECIAL_PROGRAM.levermore) },
    ),
  ],
};

function highSchoolSection(index: number): Section {
  const p = HIGH_SCHOOL_PREFIXES[index - 1] ?? `hs_${index}_`;
  return {
    id: `high-school-${index}`,
    title: index === 1 ? 'Current or Most Recent High School' : `High School ${index}`,
    repeat: { group: 'high_schools', index },
    questions: [
      autocomplete(`${p}name`, 'Search for Your School', 'hs_ceeb', {
        codeKey: `${p}ceeb`,
        ...(index === 1 ? { required: required() } : {}),
        help: 'If your school is not listed, type its full name.',
      }),
      ...addressQuestions({
        prefix: p,
        lineTwo: false,
        lookup: false,
        requireLines: false,
        stateZipRules: false,
      }),
      monthYear(`${p}attend_from_month`, `${p}attend_from_year`, 'Attended From', pastYears(10)),
      monthYear(`${p}attend_to_month`, `${p}attend_to_year`, 'Attended To', pastYears(15, 4)),
    ],
  };
}

const counselor: Section = {
  id: 'counselor',
  title: 'School Counselor and Graduation',
  questions: [
    text('counselor_first_name', "Counselor's First Name"),
    text('counselor_last_name', "Counselor's Last Name"),
    email('counselor_email_address', "Counselor's Email Address", MESSAGES.counselorEmailInvalid),
    // Graduation can lie years back (a gap year) or up to four years ahead.
    monthYear(
      'grad_month',
      'grad_year',
      'High School Graduation Date (expected or actual)',
      pastYears(15, 4),
    ),
  ],
};

interface TestInfo {
  id: 'sat' | 'act' | 'toefl' | 'duolingo' | 'ielts';
  name: string;
  scoreKey?: string;
  scoreLabel?: string;
}

const TESTS: readonly TestInfo[] = [
  { id: 'sat', name: 'SAT' },
  { id: 'act', name: 'ACT' },
  { id: 'toefl', name: 'TOEFL', scoreKey: 'toefl_score', scoreLabel: 'TOEFL Total Score' },
  {
    id: 'duolingo',
    name: 'Duolingo English Test',
    scoreKey: 'duolingo_score',
    scoreLabel: 'Duolingo Overall Score',
  },
  {
    id: 'ielts',
    name: 'IELTS',
    scoreKey: 'ielts_score_overall',
    scoreLabel: 'IELTS Overall Band Score',
  },
];

const INTERNATIONAL_TESTS: readonly string[] = ['toefl', 'duolingo', 'ielts'];

// docs/behaviour.md: scores and "again" when taken is Y, plan and unsure when N, intended when again is Y.
function testSection(test: TestInfo): Section {
  const t = test.id;
  const taken = when.equals(`${t}_taken`, 'Y');
  const notTaken = when.equals(`${t}_taken`, 'N');
  const testing = when.equals('test_taken_ind', 'Y');
  return {
    id: `test-${t}`,
    title: test.name,
    showWhen: INTERNATIONAL_TESTS.includes(t)
      ? when.and(testing, when.equals('citizenship_type', CITIZENSHIP.international))
      : testing,
    questions: [
      yesNo(`${t}_taken`, `Have you taken the ${test.name}?`),
      ...(test.scoreKey
        ? [text(test.scoreKey, test.scoreLabel ?? 'Score', { showWhen: taken, maxLength: 5 })]
        : []),
      yesNo(`${t}_taken_again`, `Do you plan to take the ${test.name} again?`, {
        showWhen: taken,
      }),
      monthYear(
        `${t}_intended_month`,
        `${t}_intended_year`,
        'When will you take it again?',
        futureYears(3),
        {
          showWhen: when.and(taken, when.equals(`${t}_taken_again`, 'Y')),
        },
      ),
      monthYear(
        `${t}_plan_month`,
        `${t}_plan_year`,
        `When do you plan to take the ${test.name}?`,
        futureYears(3),
        {
          showWhen: notTaken,
        },
      ),
      checkbox(`${t}_taken_unsure`, `I am not sure when I will take the ${test.name}.`, {
        showWhen: notTaken,
      }),
    ],
  };
}

const tests: Section = {
  id: 'tests',
  title: 'Standardized Tests',
  questions: [
    yesNo(
      'test_taken_ind',
      'Do you plan to submit standardized test scores as part of your application?',
      {
        required: required(),
        help: '{shortSchoolName} is test-optional: you will not be disadvantaged if you choose not to submit scores.',
      },
    ),
  ],
};

const personalStatement: Section = {
  id: 'personal-statement',
  title: 'Personal Statement',
  questions: statementTabs(
    'personal_statement',
    'Tell us about a challenge you have faced and what you learned from it.',
  ),
};

export const EDUCATION_PAGE: Page = {
  id: 'education',
  step: 2,
  title: 'Your Academics',
  sections: [
    plans,
    accelerated,
    majors,
    ...HIGH_SCHOOL_PREFIXES.map((_, i) => highSchoolSection(i + 1)),
    counselor,
    tests,
    ...TESTS.map(testSection),
    personalStatement,
  ],
};
