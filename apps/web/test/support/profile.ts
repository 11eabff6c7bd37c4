import type { ProfileResponse } from '@admissions/api-contract';

export const PROFILE: ProfileResponse = {
  answer: {},
  document_answer: {},
  username: 'student@example.edu',
  last_page: null,
  successful_login: ['2025-01-01T00:00:00Z'],
  web_status: [],
};
