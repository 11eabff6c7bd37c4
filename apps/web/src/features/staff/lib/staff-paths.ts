import { STAFF_PAGES } from '@admissions/api-contract';

// The staff area's pages (docs/screens-and-routes.md). /staff and /staff/setup are fixed by the
// server (where the identity provider sends people back, the link `staff add` prints).
export const STAFF_PATHS = {
  list: STAFF_PAGES.home,
  signIn: `${STAFF_PAGES.home}/sign-in`,
  setup: STAFF_PAGES.setup,
  application: (id: string) => `${STAFF_PAGES.home}/applications/${id}`,
  exports: `${STAFF_PAGES.home}/exports`,
  webhooks: `${STAFF_PAGES.home}/webhooks`,
} as const;

/** What the sign-in page is handed: why the member is there, and where to go back to. */
export interface SignInState {
  message?: string;
  next?: string;
}

export function readSignInState(state: unknown): SignInState {
  if (typeof state !== 'object' || state === null) return {};
  const { message, next } = state as Record<string, unknown>;
  return {
    ...(typeof message === 'string' ? { message } : {}),
    // Only a staff page: never an address somebody put into the history state.
    ...(typeof next === 'string' && next.startsWith(`${STAFF_PAGES.home}`) && !next.startsWith('//')
      ? { next }
      : {}),
  };
}
