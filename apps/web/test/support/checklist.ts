// Checklists as the server answers them (issue #30), for the applicant's, the recommender's and
// the staff's tests.
import type {
  ChecklistItem,
  ChecklistResponse,
  RecommendationPage,
  Recommender,
} from '@admissions/api-contract';
import { EMPTY_CHECKLIST } from './fetch-stub';

export const TEACHER_ID = '0b6a4c52-1e1f-4a57-9c1d-6f2b1d3e4a01';
export const COUNSELOR_ID = '0b6a4c52-1e1f-4a57-9c1d-6f2b1d3e4a02';

export function recommender(overrides: Partial<Recommender> = {}): Recommender {
  return {
    id: TEACHER_ID,
    type: 'teacher',
    name: 'Grace Hopper',
    email: 'grace@school.example.org',
    status: 'invited',
    invited_at: '2026-11-02T15:00:00.000Z',
    // Far ahead: the link still works whenever the test runs.
    link_expires_at: '2099-01-01T15:00:00.000Z',
    ferpa_waived: true,
    reminders_sent: 0,
    ...overrides,
  };
}

export function item(overrides: Partial<ChecklistItem> & Pick<ChecklistItem, 'id'>): ChecklistItem {
  return {
    kind: 'request',
    title: overrides.id,
    required: true,
    status: 'awaiting',
    uploadable: false,
    ...overrides,
  };
}

/** Submitted, FERPA waived: the application received, a counselor not yet invited, a teacher invited. */
export function checklist(overrides: Partial<ChecklistResponse> = {}): ChecklistResponse {
  return {
    ...EMPTY_CHECKLIST,
    submitted: true,
    complete: false,
    ferpa_waived: true,
    items: [
      item({
        id: 'application',
        kind: 'application',
        title: 'Application',
        status: 'received',
        received_at: '2026-11-20T16:00:00.000Z',
      }),
      item({ id: 'counselor', kind: 'recommendation', title: 'Counselor recommendation' }),
      item({
        id: 'teacher-1',
        kind: 'recommendation',
        title: 'Teacher recommendation',
        recommender_id: TEACHER_ID,
      }),
      item({
        id: 'teacher-2',
        kind: 'recommendation',
        title: 'Second teacher recommendation',
        required: false,
        status: 'waived',
        waived_at: '2026-11-21T16:00:00.000Z',
      }),
    ],
    recommenders: [recommender()],
    ...overrides,
  };
}

export const RECOMMENDATION_TOKEN = 'rEcOmMeNdAtIoN_tOkEn-0123456789';

export function recommendationPage(
  overrides: Partial<RecommendationPage> = {},
): RecommendationPage {
  return {
    applicant_name: 'Ada Lovelace',
    recommender_name: 'Grace Hopper',
    type: 'teacher',
    school_name: 'Example University',
    ferpa_waived: true,
    status: 'open',
    expires_at: '2027-01-01T15:00:00.000Z',
    text_limit: 10_000,
    ...overrides,
  };
}
