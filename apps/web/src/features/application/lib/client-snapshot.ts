import { WEB_STATUSES, type ProfileResponse, type WebStatus } from '@admissions/api-contract';

/** docs/data-model.md client snapshot. */
export interface ClientSnapshot {
  web_status: WebStatus | null;
  last_page: string | null;
  is_logged_in: boolean;
  username: string;
  is_service_user: boolean;
  num_logins: number;
  has_changed_page: boolean;
}

// The statuses in their order: n distinct recognised entries mean WEB_STATUSES[n - 1].
const STATUS_BY_COUNT: readonly (WebStatus | null)[] = [null, ...WEB_STATUSES];
const RECOGNISED: ReadonlySet<string> = new Set(WEB_STATUSES);

/** docs/behaviour.md: the count of distinct recognised entries gives the status (0 none … 3 submitted). */
export function deriveWebStatus(entries: readonly { web_status: string }[]): WebStatus | null {
  const distinct = new Set(entries.map((e) => e.web_status).filter((s) => RECOGNISED.has(s)));
  return STATUS_BY_COUNT[Math.min(distinct.size, WEB_STATUSES.length)] ?? null;
}

export function buildClientSnapshot(
  profile: ProfileResponse | undefined,
  session: { isLoggedIn: boolean; username: string; isServiceUser: boolean },
): ClientSnapshot {
  return {
    web_status: profile ? deriveWebStatus(profile.web_status) : null,
    last_page: profile?.last_page ?? null,
    is_logged_in: session.isLoggedIn,
    username: (profile?.username ?? session.username).toLowerCase(),
    is_service_user: session.isServiceUser,
    // docs/data-model.md: the length of successful_login, or 1 when missing.
    num_logins: profile?.successful_login.length || 1,
    has_changed_page: false,
  };
}

const PAGE_PATHS = ['/about', '/education', '/final-steps'] as const;
export type PagePath = (typeof PAGE_PATHS)[number];

export function isPagePath(path: string | null | undefined): path is PagePath {
  return PAGE_PATHS.includes(path as PagePath);
}
