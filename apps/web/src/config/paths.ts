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
} as const;

/** SPEC §2: /about is the default route; unknown paths and a successful login land here. */
export const DEFAULT_ROUTE = PATHS.about;
