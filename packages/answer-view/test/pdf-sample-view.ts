// A large hand-built view (three pages, ~400 rows, two 7,000-character answers) for the PDF
// renderer's tests: independent of the definition, so it keeps its size whatever the fixtures hold.
import type { AnswerRow, AnswerSectionView, AnswerView, ApplicationCover } from '../src/view-model';

const WORDS = (
  'the applicant describes a project in robotics that began in a school club and grew into a ' +
  'regional competition entry with teammates from three countries Zoë Łukasz 王小明 Дмитрий'
).split(' ');

/** Text of exactly `length` characters made of words, ending with a numbered marker. */
export function longAnswer(length: number, marker = 'END-OF-ANSWER'): string {
  let text = 'START-OF-ANSWER ';
  for (let i = 0; text.length < length - marker.length - 1; i++) {
    text += `${WORDS[i % WORDS.length]!} `;
  }
  text = text.slice(0, length - marker.length - 1);
  return `${text.trimEnd().padEnd(length - marker.length - 1, '.')} ${marker}`;
}

function section(
  id: string,
  title: string,
  count: number,
  extra: AnswerRow[] = [],
): AnswerSectionView {
  const rows: AnswerRow[] = [];
  for (let i = 1; i <= count; i++) {
    const kind = i % 9 === 0 ? 'check' : 'short';
    rows.push({
      key: `${id}_q${i}`,
      label: `${title} question ${i}: what is the value asked for here?`,
      value:
        kind === 'check'
          ? i % 2
            ? '[X]'
            : '[ ]'
          : `Answer ${i} for ${title} (Łódź, Αθήνα, Москва)`,
      kind,
    });
  }
  return { id, title, rows: [...rows, ...extra] };
}

export const LONG_ESSAY = longAnswer(7000, 'ESSAY-END');
export const LONG_COMMENT = longAnswer(7000, 'COMMENT-END');

export function buildLargeView(): AnswerView {
  return {
    pages: [
      {
        id: 'about',
        title: 'About You',
        sections: [
          section('personal', 'Personal Information', 16),
          section('address', 'Permanent Address', 10),
          section('mailing', 'Mailing Address', 8),
          section('citizenship', 'Citizenship', 24),
          section('ethnicity', 'Ethnicity and Race', 8),
          section('parent_1', 'Parent 1/Guardian 1', 22),
          section('parent_2', 'Parent 2/Guardian 2', 22),
          section('siblings', 'Siblings', 3),
          section('legacy_1', 'Relative 1 Who Attended State', 6),
          section('legacy_2', 'Relative 2 Who Attended State', 6),
          section('legacy_3', 'Relative 3 Who Attended State', 6),
          section('legacy_4', 'Relative 4 Who Attended State', 6),
        ],
      },
      {
        id: 'education',
        title: 'Your Academics',
        sections: [
          section('plans', 'Your Plans', 10),
          section('accelerated', 'Accelerated Programs', 8),
          section('major', 'Your Major', 24),
          section('hs_1', 'Current or Most Recent High School', 12),
          section('hs_2', 'High School 2', 12),
          section('hs_3', 'High School 3', 12),
          section('counselor', 'School Counselor and Graduation', 6),
          section('sat', 'SAT', 9),
          section('act', 'ACT', 9),
          section('toefl', 'TOEFL', 9),
          section('duolingo', 'Duolingo', 9),
          section('ielts', 'IELTS', 9),
          section('tests', 'Standardized Tests', 5),
          section('activities', 'Honors and Activities', 40),
          section('employment', 'Employment', 30),
          section('statement', 'Personal Statement', 0, [
            {
              key: 'personal_statement_essay',
              label: 'Personal statement',
              value: LONG_ESSAY,
              kind: 'long',
            },
          ]),
        ],
      },
      {
        id: 'final-steps',
        title: 'Final Steps',
        sections: [
          section('discipline', 'Disciplinary History', 4, [
            {
              key: 'conviction_comment',
              label: 'Please explain',
              value: LONG_COMMENT,
              kind: 'long',
            },
          ]),
          section('waiver', 'Recommendation Waiver', 2),
          section('certification', 'Certification', 2),
        ],
      },
    ],
    documents: [],
  };
}

export const SAMPLE_COVER: ApplicationCover = {
  applicantName: 'Zoë Łukasz 王小明 Дмитрий',
  applicationId: 'APP-2026-000123',
  email: 'zoe@example.edu',
  submittedAt: '2026-11-20T15:04:00.000Z',
  generatedAt: '2026-11-23T12:00:00.000Z',
};
