import { when } from '../conditions';
import type { Page } from '../types';
import { checkbox, required, textarea, yesNo } from './builders';

const CONVICTION = '1. Have you ever been convicted of a misdemeanor, felony, or other crime?';
const SUSPENDED =
  '2. Have you ever been suspended, expelled, or otherwise disciplined by a school you attended?';

export const FINAL_STEPS_PAGE: Page = {
  id: 'final-steps',
  step: 3,
  title: 'Final Steps',
  sections: [
    {
      id: 'disciplinary',
      title: 'Disciplinary History',
      help: 'A "yes" answer does not automatically prevent your admission.',
      questions: [
        yesNo('conviction', CONVICTION, { required: required(), neverPrefilled: true }),
        textarea(
          'conviction_comment',
          'If you answered "yes" to question 1, please describe the circumstances, including dates and outcomes.',
          { showWhen: when.equals('conviction', 'Y'), required: required(), sensitive: 'private' },
        ),
        yesNo('suspended', SUSPENDED, { required: required(), neverPrefilled: true }),
        textarea(
          'suspended_comment',
          'If you answered "yes" to question 2, please describe the circumstances, including dates and outcomes.',
          { showWhen: when.equals('suspended', 'Y'), required: required(), sensitive: 'private' },
        ),
      ],
    },
    {
      id: 'recommendation-waiver',
      title: 'Recommendation Waiver',
      questions: [
        yesNo(
          'counselor_waiver_request',
          'Do you waive your right under FERPA to review the recommendation your school counselor submits?',
          { required: required() },
        ),
      ],
    },
    {
      id: 'certification',
      title: 'Certification',
      questions: [
        checkbox(
          'legal_agree',
          'I certify that the information in my application is complete, accurate and my own.',
          { required: required() },
        ),
      ],
    },
  ],
};
