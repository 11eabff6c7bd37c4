import { when } from '../conditions';
import {
  CITIZENSHIP,
  CITIZENSHIP_TYPES,
  EDUCATION_LEVELS,
  EDUCATION_OTHER,
  EDUCATION_WITH_COLLEGE,
  LEGACY_RELATIONSHIPS,
  PARENT_COMMUNICATION,
  PARENT_COMMUNICATION_PREFERENCES,
  PARENT_RELATIONSHIPS,
} from '../codes';
import {
  BIRTH_DATE_MAX_YEARS,
  EFFECTIVE_DATE_YEARS_AFTER,
  EFFECTIVE_DATE_YEARS_BEFORE,
  MESSAGES,
  MINIMUM_AGE,
  parentMessage,
} from '../messages';
import type { Option, Page, Section } from '../types';
import {
  addressQuestions,
  autocomplete,
  checkbox,
  date,
  email,
  listOf,
  options,
  pastYears,
  phone,
  radio,
  required,
  select,
  ssn,
  text,
  textarea,
  yesNo,
} from './builders';

export const PARENT_PREFIXES = ['parent_', 'parent_2_'] as const;
export const LEGACY_PREFIXES = ['legacy_', 'legacy_2_', 'legacy_3_', 'legacy_4_'] as const;

const GENDERS: readonly Option[] = [
  { value: 'F', label: 'Female' },
  { value: 'M', label: 'Male' },
];

const GENDER_IDENTITIES: readonly Option[] = [
  { value: 'W', label: 'Woman' },
  { value: 'M', label: 'Man' },
  { value: 'N', label: 'Non-binary' },
  { value: 'O', label: 'Another identity' },
  { value: 'X', label: 'Prefer not to say' },
];

const PRONOUNS: readonly Option[] = [
  { value: 'HE', label: 'He/Him/His' },
  { value: 'SHE', label: 'She/Her/Hers' },
  { value: 'THEY', label: 'They/Them/Theirs' },
  { value: 'O', label: 'Another pronoun' },
  { value: 'X', label: 'Prefer not to say' },
];

const PREFIXES: readonly Option[] = ['Mr.', 'Ms.', 'Mrs.', 'Mx.', 'Dr.'].map((p) => ({
  value: p.replace('.', '').toUpperCase(),
  label: p,
}));

const US_RESIDENCE_LENGTHS: readonly Option[] = [
  { value: '0', label: 'Less than 1 year' },
  { value: '1', label: '1 to 2 years' },
  { value: '3', label: '3 to 5 years' },
  { value: '6', label: 'More than 5 years' },
];

const VISA_STATUSES: readonly Option[] = [
  { value: 'F1', label: 'F-1 Student' },
  { value: 'J1', label: 'J-1 Exchange Visitor' },
  { value: 'H4', label: 'H-4 Dependent' },
  { value: 'L2', label: 'L-2 Dependent' },
  { value: 'B2', label: 'B-2 Visitor' },
  { value: 'NONE', label: 'I do not hold a U.S. visa' },
  { value: 'OTHER', label: 'Other' },
];

const isType = (...types: string[]) => when.in('citizenship_type', types);
const international = when.equals('citizenship_type', CITIZENSHIP.international);
const checked = (key: string) => when.equals(key, 'true');

const personal: Section = {
  id: 'personal',
  title: 'Personal Information',
  questions: [
    text('first_name', 'First/Given Name', { required: required(), applicantName: 'first' }),
    text('middle_name', 'Middle Name', { applicantName: 'middle' }),
    text('last_name', 'Last/Family Name', { required: required(), applicantName: 'last' }),
    text('preferred_name', 'Preferred Name'),
    phone('phone_home', 'Home Phone', {
      format: { kind: 'phone', message: MESSAGES.phoneHomeInvalid },
      // docs/validation.md: home is required unless a cell or an international number is given.
      required: required(
        when.and(when.notAnswered('phone_mobile'), when.notAnswered('phone_international')),
        MESSAGES.phoneRequired,
      ),
    }),
    phone('phone_mobile', 'Cell Phone', {
      format: { kind: 'phone', message: MESSAGES.phoneMobileInvalid },
      required: required(checked('optin_sms_ind'), MESSAGES.phoneMobileForSms),
    }),
    checkbox('optin_sms_ind', 'I would like to receive text message updates about my application.'),
    text('phone_international', 'International Phone Number', {
      maxLength: 25,
      help: 'Include the country code, for example +44 20 7946 0958.',
    }),
    date('birth_date', 'Date of Birth', {
      required: required(),
      date: {
        invalidMessage: MESSAGES.birthDateInvalid,
        maxYearsAgo: BIRTH_DATE_MAX_YEARS,
        tooOldMessage: MESSAGES.birthDateTooOld,
        minAgeYears: MINIMUM_AGE,
        tooYoungMessage: MESSAGES.birthDateTooYoung,
      },
    }),
    radio('gender', 'Sex Assigned at Birth', options(GENDERS), { required: required() }),
    select('gender_iden', 'Gender Identity', options(GENDER_IDENTITIES)),
    select('preferred_pronoun', 'Preferred Pronouns', options(PRONOUNS)),
    select('birth_country', 'Country of Birth', listOf('countries')),
    email('email_address', 'Email Address', MESSAGES.emailInvalid),
  ],
};

const permanentAddress: Section = {
  id: 'address',
  title: 'Permanent Address',
  questions: [
    ...addressQuestions({
      prefix: '',
      lineTwo: true,
      lookup: true,
      requireLines: true,
      stateZipRules: true,
    }),
    yesNo(
      'mailing_addr_same_as_perm_addr',
      'Is your mailing address the same as your permanent address?',
    ),
  ],
};

const mailingAddress: Section = {
  id: 'mailing-address',
  title: 'Mailing Address',
  showWhen: when.equals('mailing_addr_same_as_perm_addr', 'N'),
  questions: [
    ...addressQuestions({
      prefix: 'mailing_',
      lineTwo: true,
      lookup: false,
      requireLines: false,
      stateZipRules: true,
      labels: { line1: 'Mailing Address' },
    }),
    date('mailing_addr_effective_date', 'On what date should we begin using this address?', {
      required: required(),
      date: {
        invalidMessage: MESSAGES.dateInvalid,
        yearWindow: { before: EFFECTIVE_DATE_YEARS_BEFORE, after: EFFECTIVE_DATE_YEARS_AFTER },
      },
    }),
  ],
};

const citizenship: Section = {
  id: 'citizenship',
  title: 'Citizenship',
  questions: [
    radio('citizenship_type', 'Citizen Type', options(CITIZENSHIP_TYPES), {
      required: required(),
    }),
    yesNo('aid_eligible', 'Are you eligible for U.S. federal financial aid?', {
      showWhen: isType(
        CITIZENSHIP.usCitizen,
        CITIZENSHIP.permanentResident,
        CITIZENSHIP.dualCitizen,
      ),
    }),
    select('citizenship', 'What is your country of citizenship?', listOf('countriesWithoutUsa'), {
      showWhen: isType(CITIZENSHIP.permanentResident, CITIZENSHIP.international),
      required: required(),
    }),
    text('alien_registration_number', 'Alien Registration Number (A-Number)', {
      showWhen: isType(CITIZENSHIP.permanentResident),
      maxLength: 12,
      sensitive: 'identifier',
    }),
    text('resident_number', 'Permanent Resident Card Number', {
      showWhen: isType(CITIZENSHIP.permanentResident),
      maxLength: 13,
    }),
    select('dual_citizen_country', 'First Country of Citizenship', listOf('countries'), {
      showWhen: isType(CITIZENSHIP.dualCitizen),
      required: required(),
    }),
    select('dual_2_citizen_country', 'Second Country of Citizenship', listOf('countries'), {
      showWhen: isType(CITIZENSHIP.dualCitizen),
      required: required(),
    }),
    ssn('ssn', 'Social Security Number', {
      showWhen: isType(CITIZENSHIP.usCitizen, CITIZENSHIP.permanentResident),
      required: required(undefined, MESSAGES.ssnInvalid),
      format: { kind: 'ssn', message: MESSAGES.ssnInvalid },
      sensitive: 'identifier',
      help: 'We use your Social Security number only to match your financial aid records.',
    }),
    text('birth_city', 'What is your city of birth?', {
      showWhen: international,
      required: required(),
    }),
    textarea('address_home_country', 'Please provide a permanent address in your home country.', {
      showWhen: international,
      required: required(),
      maxLength: 300,
    }),
    select(
      'domestic_length',
      'How long have you lived in the United States?',
      options(US_RESIDENCE_LENGTHS),
      {
        showWhen: international,
      },
    ),
    text('domestic_location', 'Where in the United States do you currently live?', {
      showWhen: when.and(international, when.notIn('domestic_length', ['', '0'])),
    }),
    date('domestic_date', 'When did you arrive in the United States?', {
      showWhen: when.and(international, when.notIn('domestic_length', ['', '0'])),
      date: { invalidMessage: MESSAGES.dateInvalid },
    }),
    select(
      'citizenship_visa_status',
      'What U.S. visa do you hold or plan to hold?',
      options(VISA_STATUSES),
      {
        showWhen: international,
      },
    ),
    text('other_visa_status', 'Please name your visa status.', {
      showWhen: when.and(international, when.equals('citizenship_visa_status', 'OTHER')),
    }),
    yesNo('f1_visa', 'Will you need an F-1 student visa to study in the United States?', {
      showWhen: international,
    }),
    textarea(
      'f1_visa_explain',
      'Please explain how you will maintain your U.S. immigration status.',
      {
        showWhen: when.and(international, when.equals('f1_visa', 'N')),
        maxLength: 500,
      },
    ),
    yesNo('agency_flag', 'Are you working with an agency or agent on your application?', {
      showWhen: international,
    }),
    text('agency_name', 'Agency Name', {
      showWhen: when.and(international, when.equals('agency_flag', 'Y')),
    }),
    text('agency_location', 'Agency Location (city and country)', {
      showWhen: when.and(international, when.equals('agency_flag', 'Y')),
    }),
    yesNo('native_language', 'Is English your first language?'),
    select('native_language_select', 'What is your first language?', listOf('languages'), {
      showWhen: when.equals('native_language', 'N'),
    }),
    select(
      'home_language',
      'What language is spoken most often in your home?',
      listOf('languages'),
    ),
    select('primary_language', 'In what language are you most comfortable?', listOf('languages')),
  ],
};

const ethnicity: Section = {
  id: 'ethnicity',
  title: 'Ethnicity and Race',
  help: 'Answering is optional and does not affect your admission decision.',
  questions: [
    yesNo('ethnicity', 'Are you Hispanic or Latino?'),
    checkbox('race_american_indian', 'American Indian or Alaska Native'),
    checkbox('race_asian', 'Asian'),
    checkbox('race_black', 'Black or African American'),
    checkbox('race_native_hawaiian', 'Native Hawaiian or Other Pacific Islander'),
    checkbox('race_white', 'White'),
  ],
};

function parentSection(index: number): Section {
  const p = PARENT_PREFIXES[index - 1] ?? `parent_${index}_`;
  const preference = 'parent_communication_preference';
  const emailRequiredWhen =
    index === 1 ? when.answered(preference) : when.equals(preference, PARENT_COMMUNICATION.both);
  return {
    id: `parent-${index}`,
    title: `Parent ${index}/Guardian ${index}`,
    repeat: { group: 'parents', index },
    questions: [
      ...(index === 1
        ? [
            select(
              preference,
              'Would you like us to include your parents or guardians in updates about your application?',
              options(PARENT_COMMUNICATION_PREFERENCES),
            ),
          ]
        : []),
      select(`${p}relationship`, 'Relationship to You', options(PARENT_RELATIONSHIPS)),
      select(`${p}prefix`, 'Prefix', options(PREFIXES)),
      text(`${p}first_name`, 'First/Given Name'),
      text(`${p}last_name`, 'Last/Family Name'),
      email(`${p}email_address`, 'Email Address', parentMessage(index, MESSAGES.emailInvalid), {
        required: required(emailRequiredWhen, parentMessage(index, MESSAGES.emailInvalid)),
      }),
      phone(`${p}phone`, 'Phone Number', {
        format: {
          kind: 'phone',
          message: parentMessage(index, 'Please enter a valid phone number.'),
        },
      }),
      text(`${p}occupation`, 'Occupation'),
      text(`${p}employer`, 'Employer'),
      select(`${p}education`, 'Highest Level of Education', options(EDUCATION_LEVELS)),
      text(`${p}education_other`, 'Please describe their education.', {
        showWhen: when.equals(`${p}education`, EDUCATION_OTHER),
      }),
      autocomplete(`${p}college_name`, 'College or University Attended', 'college_ceeb', {
        showWhen: when.in(`${p}education`, EDUCATION_WITH_COLLEGE),
      }),
      yesNo(`${p}addr_same_as_stu_perm`, 'Is their address the same as your permanent address?'),
      ...addressQuestions({
        prefix: p,
        lineTwo: true,
        lookup: false,
        requireLines: false,
        stateZipRules: false,
      }).map((q) => ({ ...q, showWhen: when.equals(`${p}addr_same_as_stu_perm`, 'N') })),
    ],
  };
}

const siblings: Section = {
  id: 'siblings',
  title: 'Siblings',
  questions: [
    yesNo('sibling_admission', 'Has a brother or sister applied to or attended {schoolName}?'),
    text('sibling_admission_name', "Sibling's Full Name", {
      showWhen: when.equals('sibling_admission', 'Y'),
      maxLength: 100,
    }),
  ],
};

function legacySection(index: number): Section {
  const p = LEGACY_PREFIXES[index - 1] ?? `legacy_${index}_`;
  return {
    id: `legacy-${index}`,
    title: `Relative ${index} Who Attended {shortSchoolName}`,
    help:
      index === 1
        ? 'If a relative graduated from {schoolName}, tell us about them. This is optional.'
        : undefined,
    repeat: { group: 'legacy', index },
    questions: [
      select(`${p}relationship`, 'Relationship to You', options(LEGACY_RELATIONSHIPS)),
      text(`${p}first_name`, 'First/Given Name'),
      text(`${p}middle_name`, 'Middle Name'),
      text(`${p}last_name`, 'Last/Family Name'),
      select(`${p}grad_year`, 'Graduation Year', pastYears(80)),
    ],
  };
}

export const ABOUT_PAGE: Page = {
  id: 'about',
  step: 1,
  title: 'About You',
  sections: [
    personal,
    permanentAddress,
    mailingAddress,
    citizenship,
    ethnicity,
    ...PARENT_PREFIXES.map((_, i) => parentSection(i + 1)),
    siblings,
    ...LEGACY_PREFIXES.map((_, i) => legacySection(i + 1)),
  ],
};
