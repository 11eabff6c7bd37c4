// The staff area's calls (docs/api.md, "Staff area"). Staff answers never go through the
// applicant's session handling: a 401 here means the staff session ended, and the staff layout
// sends the member to the sign-in page with the server's message instead of to /login.
import {
  type ChecklistResponse,
  type StaffExportBody,
  type StaffExportListResponse,
  type StaffListQuery,
  type StaffLoginBody,
  type StaffMeResponse,
  type StaffRequestBody,
  type StaffSetupBody,
} from '@admissions/api-contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  callApi,
  type CallArgs,
  type CallInput,
  type CallResponse,
  type JsonRoute,
} from '../../../shared/api/call-api';
import { isUnauthorizedError } from '../../../shared/api/errors';

let onUnauthorized: ((message: string) => void) | null = null;

/** The staff layout decides what a lost staff session does (it is mounted around every page). */
export function setStaffUnauthorizedHandler(handler: ((message: string) => void) | null): void {
  onUnauthorized = handler;
}

async function staffFetch<R extends JsonRoute>(
  route: R,
  input?: CallInput<R>,
): Promise<CallResponse<R>> {
  try {
    return await signInFetch(route, input);
  } catch (error) {
    if (isUnauthorizedError(error)) onUnauthorized?.(error.message);
    throw error;
  }
}

/**
 * Sign-in steps answer 401 for a wrong password or code: that is the form's error, not a lost
 * session. No staff route is of `applicant` access, so callApi never sends anyone to /login.
 */
function signInFetch<R extends JsonRoute>(
  route: R,
  input?: CallInput<R>,
): Promise<CallResponse<R>> {
  return callApi(route, ...([input] as CallArgs<R>));
}

export const staffKeys = {
  all: ['staff'] as const,
  me: ['staff', 'me'] as const,
  methods: ['staff', 'methods'] as const,
  list: (query: StaffListQuery) => ['staff', 'applications', query] as const,
  application: (id: string) => ['staff', 'application', id] as const,
  checklist: (id: string) => ['staff', 'checklist', id] as const,
  exports: ['staff', 'exports'] as const,
  rounds: ['staff', 'rounds'] as const,
  webhooks: ['staff', 'webhooks'] as const,
};

/**
 * The signed-in member, or null when there is no staff session (not an error: the sign-in page).
 * Asked of the session probe, which answers 200 either way: a 401 from /staff/api/me would put an
 * error in the console of everyone who simply has not signed in yet.
 */
export const staffMeQuery = queryOptions({
  queryKey: staffKeys.me,
  queryFn: async (): Promise<StaffMeResponse | null> => {
    const session = await signInFetch('GET /staff/auth/session');
    return session.signed_in ? { email: session.email, role: session.role } : null;
  },
  staleTime: 60_000,
  retry: false,
});

export function useStaffMe() {
  return useQuery(staffMeQuery);
}

export function useStaffMethods() {
  return useQuery({
    queryKey: staffKeys.methods,
    queryFn: () => signInFetch('GET /staff/auth/methods'),
    staleTime: Infinity,
  });
}

export function useStaffLogin() {
  return useMutation({
    mutationFn: (body: StaffLoginBody) => signInFetch('POST /staff/auth/login', { body }),
  });
}

export function useStaffTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => signInFetch('POST /staff/auth/totp', { body: { code } }),
    onSuccess: (me) => {
      queryClient.removeQueries({ queryKey: staffKeys.all });
      queryClient.setQueryData(staffKeys.me, me);
    },
  });
}

export function useStaffSetup() {
  return useMutation({
    mutationFn: (body: StaffSetupBody) => signInFetch('POST /staff/auth/setup', { body }),
  });
}

export function useStaffSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signInFetch('POST /staff/auth/logout'),
    onSettled: () => {
      // Nothing read under this session may show to whoever signs in next.
      queryClient.removeQueries({ queryKey: staffKeys.all });
      queryClient.setQueryData(staffKeys.me, null);
    },
  });
}

/** The filters that are set: an empty search box is no filter. */
function withoutEmpty(query: StaffListQuery): StaffListQuery {
  return Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined && value !== ''),
  );
}

export function useStaffApplications(query: StaffListQuery) {
  return useQuery({
    queryKey: staffKeys.list(query),
    queryFn: () => staffFetch('GET /staff/api/applications', { query: withoutEmpty(query) }),
    // The table keeps the previous page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useStaffApplication(id: string) {
  return useQuery({
    queryKey: staffKeys.application(id),
    queryFn: () => staffFetch('GET /staff/api/applications/:id', { params: { id } }),
    // Each read is audited: read once per visit, not on every focus.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** The admission rounds with their counts: the list's round filter and the rounds table. */
export function useStaffRounds() {
  return useQuery({
    queryKey: staffKeys.rounds,
    queryFn: () => staffFetch('GET /staff/api/rounds'),
    staleTime: 60_000,
  });
}

const EXPORT_POLL_MS = 1000;

export function useStaffExports() {
  return useQuery({
    queryKey: staffKeys.exports,
    queryFn: () => staffFetch('GET /staff/api/exports'),
    // Progress: poll while one runs.
    refetchInterval: (query) =>
      query.state.data?.exports.some((e) => e.status === 'running') ? EXPORT_POLL_MS : false,
  });
}

export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffExportBody) => staffFetch('POST /staff/api/exports', { body }),
    onSuccess: (started) => {
      queryClient.setQueryData<StaffExportListResponse>(staffKeys.exports, (old) => ({
        exports: [started, ...(old?.exports ?? []).filter((e) => e.id !== started.id)],
      }));
      void queryClient.invalidateQueries({ queryKey: staffKeys.exports });
    },
  });
}

// A delivery's next attempt is at least WEBHOOK_RETRY_BASE_MS (30 s) away; every 10 s shows a
// pending one turn delivered or failed soon after the worker is done with it.
const WEBHOOKS_POLL_MS = 10_000;

/** The webhook subscriptions and their delivery log (issue #31, exporters). */
export function useStaffWebhooks() {
  return useQuery({
    queryKey: staffKeys.webhooks,
    queryFn: () => staffFetch('GET /staff/api/webhooks'),
    refetchInterval: WEBHOOKS_POLL_MS,
  });
}

/** An application's checklist (issue #30): any staff member reads it. */
export function useStaffChecklist(id: string) {
  return useQuery({
    queryKey: staffKeys.checklist(id),
    queryFn: () => staffFetch('GET /staff/api/applications/:id/checklist', { params: { id } }),
    // Once per visit of the page (the read is audited), not on focus: letters and uploads arrive
    // between visits.
    refetchOnMount: 'always',
    retry: false,
    // A refusal shows in the panel; the application above it stays on screen.
    throwOnError: false,
  });
}

function useStaffChecklistMutation<V>(
  id: string,
  call: (variables: V) => Promise<ChecklistResponse>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (checklist) => {
      queryClient.setQueryData(staffKeys.checklist(id), checklist);
      // The list's "2 of 3" column counts the same items.
      void queryClient.invalidateQueries({ queryKey: ['staff', 'applications'] });
    },
  });
}

/** A processor asks the applicant for an item: one e-mail and an upload slot on their checklist. */
export function useRequestStaffItem(id: string) {
  return useStaffChecklistMutation(id, (body: StaffRequestBody) =>
    staffFetch('POST /staff/api/applications/:id/requests', { params: { id }, body }),
  );
}

/** A processor waives an awaited item. */
export function useWaiveStaffItem(id: string) {
  return useStaffChecklistMutation(id, (item: string) =>
    staffFetch('POST /staff/api/applications/:id/waivers', { params: { id }, body: { item } }),
  );
}
