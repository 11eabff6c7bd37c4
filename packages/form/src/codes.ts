// Codes the spec names but does not label (docs/validation.md refers to citizenship type 4, early assurance
// 12, major THE, ...). The labels are ours; the codes are what the offices' systems already read,
// so they must never be renumbered. The package README lists them as a table.
import type { Option } from './types';

export const CITIZENSHIP = {
  usCitizen: '1',
  permanentResident: '2',
  dualCitizen: '3',
  international: '4',
} as const;

export const CITIZENSHIP_TYPES: readonly Option[] = [
  { value: CITIZENSHIP.usCitizen, label: 'U.S. Citizen' },
  { value: CITIZENSHIP.permanentResident, label: 'U.S. Permanent Resident' },
  { value: CITIZENSHIP.dualCitizen, label: 'U.S. Dual Citizen' },
  { value: CITIZENSHIP.international, label: 'International Student (not a U.S. citizen)' },
];

/** Codes for which docs/validation.md asks for the three-year business statement. */
export const BUSINESS_TRACK_CODES: readonly string[] = ['15', '3', '5', '7', '8', '11', '12'];
/** The one track that also asks for a step level. */
export const STEP_TRACK_CODE = '12';

export const EARLY_ASSURANCE_PROGRAMS: readonly Option[] = [
  { value: 'N', label: 'I am not applying to an accelerated program' },
  { value: '3', label: 'Three-Year BBA: Accounting' },
  { value: '5', label: 'Three-Year BBA: Finance' },
  { value: '7', label: 'Three-Year BBA: Management' },
  { value: '8', label: 'Three-Year BBA: Marketing' },
  { value: '11', label: 'Three-Year BBA: Business Analytics' },
  { value: '12', label: 'Three-Year BBA: STEP (Summer Term Entry Program)' },
  { value: '15', label: 'Three-Year BBA: Undecided Business Concentration' },
];

export const STEP_LEVELS: readonly Option[] = [
  { value: '1', label: 'Level 1: first summer term' },
  { value: '2', label: 'Level 2: with college credit already earned' },
];

export const MAJOR = {
  studioArt: 'ARS',
  artEducation: 'AEN',
  dance: 'DAN',
  music: 'MUS',
  musicEducation: 'MUE',
  theater: 'THE',
  socialWork: '1',
  nursing: 'NUR',
} as const;

export const MAJORS: readonly Option[] = [
  { value: 'ACC', label: 'Accounting' },
  { value: MAJOR.studioArt, label: 'Art (Studio Art)' },
  { value: MAJOR.artEducation, label: 'Art Education' },
  { value: 'BIO', label: 'Biology' },
  { value: 'BUS', label: 'Business Administration' },
  { value: 'CHE', label: 'Chemistry' },
  { value: 'COM', label: 'Communication' },
  { value: 'CSC', label: 'Computer Science' },
  { value: MAJOR.dance, label: 'Dance' },
  { value: 'ECO', label: 'Economics' },
  { value: 'EDU', label: 'Elementary Education' },
  { value: 'ENG', label: 'English' },
  { value: 'HIS', label: 'History' },
  { value: 'MAT', label: 'Mathematics' },
  { value: MAJOR.music, label: 'Music' },
  { value: MAJOR.musicEducation, label: 'Music Education' },
  { value: MAJOR.nursing, label: 'Nursing' },
  { value: 'POL', label: 'Political Science' },
  { value: 'PSY', label: 'Psychology' },
  { value: MAJOR.socialWork, label: 'Social Work' },
  { value: MAJOR.theater, label: 'Theater' },
  { value: 'UND', label: 'Undecided' },
];

export const PRE_PROFESSIONAL_PATHWAYS: readonly Option[] = [
  { value: 'NONE', label: 'No pre-professional pathway' },
  { value: 'PRELAW', label: 'Pre-Law' },
  { value: 'PREMED', label: 'Pre-Medicine' },
  { value: 'PREDENT', label: 'Pre-Dentistry' },
  { value: 'PREPHARM', label: 'Pre-Pharmacy' },
  { value: 'PREVET', label: 'Pre-Veterinary Medicine' },
];

export const THEATER_CONCENTRATIONS: readonly Option[] = [
  { value: 'ACT', label: 'Acting' },
  { value: 'MTH', label: 'Musical Theater' },
  { value: 'DTC', label: 'Design and Technology' },
  { value: 'STM', label: 'Stage Management' },
];

export const INSTRUMENTS: readonly Option[] = [
  'Voice',
  'Piano',
  'Organ',
  'Guitar',
  'Harp',
  'Violin',
  'Viola',
  'Cello',
  'Double Bass',
  'Flute',
  'Oboe',
  'Clarinet',
  'Bassoon',
  'Saxophone',
  'Horn',
  'Trumpet',
  'Trombone',
  'Euphonium',
  'Tuba',
  'Percussion',
].map((label) => ({ value: label.toUpperCase().replace(/ /g, '_'), label }));

/**
 * Majors that require ticking an acknowledgement (docs/validation.md): the checkbox key, the majors that
 * show it, and the message when it is left unticked.
 */
export const ACKNOWLEDGEMENTS = [
  {
    key: 'confirm_acknowledgement_art',
    majors: [MAJOR.studioArt, MAJOR.artEducation],
    label: 'I understand that admission to an art major requires a portfolio review.',
    message: 'Please confirm that you understand that art majors require a portfolio review.',
  },
  {
    key: 'confirm_acknowledgement_dance',
    majors: [MAJOR.dance],
    label: 'I understand that admission to the dance major requires an audition.',
    message: 'Please confirm that you understand that the dance major requires an audition.',
  },
  {
    key: 'confirm_acknowledgement_music',
    majors: [MAJOR.music, MAJOR.musicEducation],
    label: 'I understand that admission to a music major requires an audition.',
    message: 'Please confirm that you understand that music majors require an audition.',
  },
  {
    key: 'confirm_acknowledgement_theater',
    majors: [MAJOR.theater],
    label:
      'I understand that admission to the theater major requires an audition or, for design and technology, a portfolio review.',
    message:
      'Please confirm that you understand that the theater major requires an audition or portfolio review.',
  },
  {
    key: 'confirm_acknowledgement_socialwork',
    majors: [MAJOR.socialWork],
    label:
      'I understand that the social work major requires a separate portfolio review before I can begin major courses.',
    message:
      'Please confirm that you understand that the social work major requires a portfolio review.',
  },
] as const;

export const SPECIAL_PROGRAM = {
  none: 'NONE',
  honors: 'HON',
  bridges: 'BRG',
  learningResource: 'LRP',
  levermore: 'LEV',
} as const;

export const SPECIAL_PROGRAMS: readonly Option[] = [
  { value: SPECIAL_PROGRAM.none, label: 'I am not applying to a special program' },
  { value: SPECIAL_PROGRAM.honors, label: 'Honors College' },
  { value: SPECIAL_PROGRAM.bridges, label: 'Bridges Program (first-year transition support)' },
  { value: SPECIAL_PROGRAM.learningResource, label: 'Learning Resource Program' },
  { value: SPECIAL_PROGRAM.levermore, label: 'Levermore Global Scholars' },
];

export const EDUCATION_LEVELS: readonly Option[] = [
  { value: '1', label: 'Some high school' },
  { value: '2', label: 'High school diploma or GED' },
  { value: '3', label: 'Some college' },
  { value: '4', label: "Associate's degree" },
  { value: '5', label: "Bachelor's degree" },
  { value: '6', label: "Master's degree" },
  { value: '7', label: 'Doctoral or professional degree' },
  { value: '8', label: 'Other' },
  { value: '9', label: 'Unknown' },
];
export const EDUCATION_OTHER = '8';
/** Levels at which a college was attended, so its name is asked. */
export const EDUCATION_WITH_COLLEGE: readonly string[] = ['3', '4', '5', '6', '7'];

export const PARENT_RELATIONSHIPS: readonly Option[] = [
  { value: 'M', label: 'Mother' },
  { value: 'F', label: 'Father' },
  { value: 'P', label: 'Parent' },
  { value: 'SM', label: 'Stepmother' },
  { value: 'SF', label: 'Stepfather' },
  { value: 'LG', label: 'Legal Guardian' },
  { value: 'GP', label: 'Grandparent' },
  { value: 'O', label: 'Other' },
];

export const LEGACY_RELATIONSHIPS: readonly Option[] = [
  { value: 'P', label: 'Parent or guardian' },
  { value: 'GP', label: 'Grandparent' },
  { value: 'S', label: 'Sibling' },
  { value: 'AU', label: 'Aunt or uncle' },
  { value: 'C', label: 'Cousin' },
  { value: 'O', label: 'Other' },
];

export const PARENT_COMMUNICATION = { parentOne: '1', both: '2' } as const;

export const PARENT_COMMUNICATION_PREFERENCES: readonly Option[] = [
  { value: PARENT_COMMUNICATION.parentOne, label: 'Yes, Parent 1/Guardian 1' },
  {
    value: PARENT_COMMUNICATION.both,
    label: 'Yes, both Parent 1/Guardian 1 and Parent 2/Guardian 2',
  },
];
