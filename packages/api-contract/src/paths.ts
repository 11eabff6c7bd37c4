/** The SPA route of the staff print view; the CLI prints `${PUBLIC_URL}${PRINT_VIEW_PATH}?service_token=…`. */
export const PRINT_VIEW_PATH = '/print';

/** The JavaScript-readable login marker (docs/roles.md) starts with this; it carries no secret. */
export const LOGIN_MARKER_COOKIE_PREFIX = 'CognitoIdentityServiceProvider';

/** The staff area's pages in the SPA (apps/web). */
export const STAFF_PAGES = {
  home: '/staff',
  setup: '/staff/setup',
} as const;

/** The recommender's page in the SPA: `${PUBLIC_URL}${RECOMMENDATION_PATH}/<token>` (e-mailed). */
export const RECOMMENDATION_PATH = '/recommend';

/** The applicant's status page after submit, with the checklist (linked from e-mails). */
export const STATUS_PAGE_PATH = '/completion';
