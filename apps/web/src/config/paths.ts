import { PRINT_VIEW_PATH, RECOMMENDATION_PATH } from '@admissions/api-contract';

// Route paths in one place: links, redirects and the router agree on them.
export const PATHS = {
  about: '/about',
  education: '/education',
  finalSteps: '/final-steps',
  completion: '/completion',
  login: '/login',
  signup: '/signup',
  confirm: '/confirm',
  forgot: '/forgot',
  reset: '/reset',
  /** The recommender's page (issue #30): the server e-mails `<PUBLIC_URL>/recommend/<token>`. */
  recommend: `${RECOMMENDATION_PATH}/:token`,
  /** The staff print view (the CLI prints links to it with ?service_token=). */
  print: PRINT_VIEW_PATH,
  /** The staff area (features/staff/lib/staff-paths.ts has them all; these are the router's). */
  staff: '/staff',
  staffSignIn: '/staff/sign-in',
  staffSetup: '/staff/setup',
} as const;

/** docs/screens-and-routes.md: the query parameter that turns the session into a service user's print view. */
export const SERVICE_TOKEN_PARAM = 'service_token';

/** docs/screens-and-routes.md: /about is the default route; unknown paths and a successful login land here. */
export const DEFAULT_ROUTE = PATHS.about;
