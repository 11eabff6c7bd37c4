// Who may call each endpoint: the one statement of it. The server attaches the guard and the
// 401/403 answers from it (services/api platform/http/register-endpoint.ts), the OpenAPI document
// lists those answers, and the SPA's fetch reads it to tell a lost session (an `applicant` route's
// 401) from a refused sign-in. No schema here, so the SPA's bundle carries only these few objects.
import * as ROUTE from './endpoint-routes';
import type { StaffRole } from './staff';

/** The scopes an API key (`staff api-key create --scope`) and the tokens it mints carry. */
export type CredentialScope = 'read' | 'export' | 'write-ids';
/** The scopes a service token carries: a key of scope `write-ids` mints none. */
export type TokenScope = Exclude<CredentialScope, 'write-ids'>;

export type Access =
  /** Anyone (a route that checks its own secret, such as a one-time code, is public here). */
  | { readonly kind: 'public' }
  /** A signed-in applicant's session (cookie `sid`). */
  | { readonly kind: 'applicant' }
  /**
   * A staff session (cookie `staff_sid`): `reader` is any staff member, `exporter` only an
   * exporter, `processor` only a processor (who requests and waives checklist items). `stage: 'totp'` is the pending session between the password and the TOTP code.
   */
  | { readonly kind: 'staff'; readonly role: StaffRole; readonly stage?: 'totp' }
  /** A campus system's API key (`Authorization: Bearer`) with one of `scopes`. */
  | { readonly kind: 'service'; readonly scopes: readonly CredentialScope[] }
  /** A service token (`?service_token=`, minted with an API key or the CLI) with one of `scopes`. */
  | { readonly kind: 'service-token'; readonly scopes: readonly TokenScope[] };

export type AccessKind = Access['kind'];

export const PUBLIC = { kind: 'public' } as const;
export const APPLICANT = { kind: 'applicant' } as const;
export const STAFF_READER = { kind: 'staff', role: 'reader' } as const;
export const STAFF_EXPORTER = { kind: 'staff', role: 'exporter' } as const;
export const STAFF_PROCESSOR = { kind: 'staff', role: 'processor' } as const;
const STAFF_PENDING = { kind: 'staff', role: 'reader', stage: 'totp' } as const;
const API_KEY = { kind: 'service', scopes: ['read', 'export'] } as const;
/** The student system's return feed: an API key of scope `write-ids` writes external IDs only. */
const WRITE_IDS_KEY = { kind: 'service', scopes: ['write-ids'] } as const;

/** The refusals each kind of access adds to an endpoint's answers. */
export const ACCESS_ERRORS = {
  public: [],
  applicant: ['SESSION_INVALID'],
  staff: ['STAFF_SESSION_INVALID'],
  /** A role narrower than `reader` (exporter, processor): other staff are refused with 403. */
  exporter: ['STAFF_SESSION_INVALID', 'STAFF_FORBIDDEN'],
  service: ['API_KEY_INVALID', 'API_KEY_SCOPE'],
  'service-token': ['SERVICE_TOKEN_INVALID', 'SERVICE_TOKEN_EXPIRED', 'SERVICE_TOKEN_SCOPE'],
} as const;

export type AccessErrors<A extends Access> = A extends {
  kind: 'staff';
  role: 'exporter' | 'processor';
}
  ? (typeof ACCESS_ERRORS)['exporter']
  : (typeof ACCESS_ERRORS)[A['kind']];

export function accessErrors<A extends Access>(access: A): AccessErrors<A> {
  const key = access.kind === 'staff' && access.role !== 'reader' ? 'exporter' : access.kind;
  return ACCESS_ERRORS[key] as AccessErrors<A>;
}

type RouteName = keyof typeof ROUTE;
type Route = (typeof ROUTE)[RouteName];

/**
 * The routes of `applicant` access, listed apart: the SPA reads this list alone (a 401 from one
 * of them means the session ended), so its bundle carries no other route.
 */
export const APPLICANT_ROUTES = [
  ROUTE.logout,
  ROUTE.readProfile,
  ROUTE.readApplications,
  ROUTE.chooseApplication,
  ROUTE.saveAnswers,
  ROUTE.saveLastPage,
  ROUTE.advanceWebStatus,
  ROUTE.saveValidations,
  ROUTE.submit,
  ROUTE.readAddAnother,
  ROUTE.saveAddAnother,
  ROUTE.readTabs,
  ROUTE.chooseTab,
  ROUTE.createUploadUrl,
  ROUTE.startConversion,
  ROUTE.readConversion,
  ROUTE.forgetConversion,
  ROUTE.readDocumentAnswers,
  ROUTE.deleteDocument,
  ROUTE.readDocumentThumbnail,
  ROUTE.requestApplicationPdf,
  ROUTE.downloadApplicationPdf,
  ROUTE.readChecklist,
  ROUTE.addRecommender,
  ROUTE.updateRecommender,
  ROUTE.removeRecommender,
  ROUTE.remindRecommender,
  ROUTE.uploadChecklistItem,
] as const;

export function isApplicantRoute(route: string): boolean {
  return (APPLICANT_ROUTES as readonly string[]).includes(route);
}

function grantAll<const R extends Route, const A extends Access>(
  routes: readonly R[],
  access: A,
): { readonly [K in R]: A } {
  return Object.fromEntries(routes.map((route) => [route, access])) as { readonly [K in R]: A };
}

/** Every route of endpoint-routes.ts with its access; a route left out does not compile. */
export const ENDPOINT_ACCESS = {
  .../* @__PURE__ */ grantAll(APPLICANT_ROUTES, APPLICANT),
  [ROUTE.health]: PUBLIC,
  [ROUTE.readPartner]: PUBLIC,

  [ROUTE.signup]: PUBLIC,
  [ROUTE.confirm]: PUBLIC,
  [ROUTE.resendConfirm]: PUBLIC,
  [ROUTE.login]: PUBLIC,
  [ROUTE.forgotPassword]: PUBLIC,
  [ROUTE.resetPassword]: PUBLIC,

  // The prefill link's token is the visitor's only credential.
  [ROUTE.readTemporaryAnswers]: PUBLIC,

  [ROUTE.readServicePrint]: { kind: 'service-token', scopes: ['read'] },
  [ROUTE.downloadServicePdf]: { kind: 'service-token', scopes: ['read', 'export'] },

  [ROUTE.lookupFind]: PUBLIC,

  // The recommender's link (single-purpose, 60 days) is their only credential.
  [ROUTE.readRecommendation]: PUBLIC,
  [ROUTE.submitRecommendation]: PUBLIC,

  [ROUTE.startStaffOidc]: PUBLIC,
  [ROUTE.finishStaffOidc]: PUBLIC,
  [ROUTE.readStaffMethods]: PUBLIC,
  // Answers `signed_in: false` without a session rather than 401.
  [ROUTE.readStaffSession]: PUBLIC,
  [ROUTE.staffLogin]: PUBLIC,
  [ROUTE.staffTotp]: STAFF_PENDING,
  [ROUTE.staffSetup]: PUBLIC,
  // Signing out without a live session is still signed out.
  [ROUTE.staffLogout]: PUBLIC,
  [ROUTE.readStaffMe]: STAFF_READER,
  [ROUTE.listStaffApplications]: STAFF_READER,
  [ROUTE.listStaffRounds]: STAFF_READER,
  [ROUTE.readStaffApplication]: STAFF_READER,
  [ROUTE.downloadStaffApplicationPdf]: STAFF_READER,
  [ROUTE.readStaffChecklist]: STAFF_READER,
  [ROUTE.requestStaffItem]: STAFF_PROCESSOR,
  [ROUTE.waiveStaffItem]: STAFF_PROCESSOR,
  [ROUTE.startStaffExport]: STAFF_EXPORTER,
  [ROUTE.listStaffExports]: STAFF_EXPORTER,
  [ROUTE.readStaffExport]: STAFF_EXPORTER,
  [ROUTE.downloadStaffExport]: STAFF_EXPORTER,
  // Where data leaves for the student system: the exporters' business.
  [ROUTE.listStaffWebhooks]: STAFF_EXPORTER,

  [ROUTE.mintServiceToken]: API_KEY,
  [ROUTE.listServiceApplications]: API_KEY,
  [ROUTE.setExternalId]: WRITE_IDS_KEY,
} as const satisfies { readonly [R in Route]: Access };

export type AccessOf<R extends Route> = (typeof ENDPOINT_ACCESS)[R];
