// The staff area's calls (docs/api.md, "Staff area"). Staff answers never go through the
// applicant's session handling: a 401 here means the staff session ended, and the staff layout
// sends the member to the sign-in page with the server's message instead of to /login.
import {
  STAFF_EXPORT_ROUTES,
  STAFF_ROUTES,
  type MessageResponse,
  type StaffApplicationResponse,
  type StaffExportBody,
  type StaffExportListResponse,
  type StaffExportResponse,
  type StaffListQuery,
  type StaffListResponse,
  type StaffLoginBody,
  type StaffLoginResponse,
  type StaffMeResponse,
  type StaffMethodsResponse,
  type StaffSetupBody,
} from '@admissions/api-contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { fetchJson, type HttpMethod } from '../../../shared/api/fetch-handler';
import { isUnauthorizedError } from '../../../shared/api/errors';

let onUnauthorized: ((message: string) => void) | null = null;

/** The staff layout decides what a lost staff session does (it is mounted around every page). */
export function setStaffUnauthorizedHandler(handler: ((message: string) => void) | null): void {
  onUnauthorized = handler;
}

async function staffFetch<T>(uri: string, method: HttpMethod, payload?: unknown): Promise<T> {
  try {
    return await fetchJson<T>(uri, method, payload, { sessionRedirect: false });
  } catch (error) {
    if (isUnauthorizedError(error)) onUnauthorized?.(error.message);
    throw error;
  }
}

/** Sign-in steps answer 401 for a wrong password or code: that is the form's error, not a lost session. */
function signInFetch<T>(uri: string, method: HttpMethod, payload?: unknown): Promise<T> {
  return fetchJson<T>(uri, method, payload, { sessionRedirect: false });
}

export const staffKeys = {
  all: ['staff'] as const,
  me: ['staff', 'me'] as const,
  methods: ['staff', 'methods'] as const,
  list: (query: StaffListQuery) => ['staff', 'applications', query] as const,
  application: (id: string) => ['staff', 'application', id] as const,
  exports: ['staff', 'exports'] as const,
};

/** The signed-in member, or null when there is no staff session (not an error: the sign-in page). */
export const staffMeQuery = queryOptions({
  queryKey: staffKeys.me,
  queryFn: async (): Promise<StaffMeResponse | null> => {
    try {
      return await signInFetch<StaffMeResponse>(STAFF_ROUTES.me, 'GET');
    } catch (error) {
      if (isUnauthorizedError(error)) return null;
      throw error;
    }
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
    queryFn: () => signInFetch<StaffMethodsResponse>(STAFF_ROUTES.methods, 'GET'),
    staleTime: Infinity,
  });
}

export function useStaffLogin() {
  return useMutation({
    mutationFn: (body: StaffLoginBody) =>
      signInFetch<StaffLoginResponse>(STAFF_ROUTES.login, 'POST', body),
  });
}

export function useStaffTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => signInFetch<StaffMeResponse>(STAFF_ROUTES.totp, 'POST', { code }),
    onSuccess: (me) => {
      queryClient.removeQueries({ queryKey: staffKeys.all });
      queryClient.setQueryData(staffKeys.me, me);
    },
  });
}

export function useStaffSetup() {
  return useMutation({
    mutationFn: (body: StaffSetupBody) =>
      signInFetch<MessageResponse>(STAFF_ROUTES.setup, 'POST', body),
  });
}

export function useStaffSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signInFetch<MessageResponse>(STAFF_ROUTES.logout, 'POST', {}),
    onSettled: () => {
      // Nothing read under this session may show to whoever signs in next.
      queryClient.removeQueries({ queryKey: staffKeys.all });
      queryClient.setQueryData(staffKeys.me, null);
    },
  });
}

function toSearch(query: StaffListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function useStaffApplications(query: StaffListQuery) {
  return useQuery({
    queryKey: staffKeys.list(query),
    queryFn: () =>
      staffFetch<StaffListResponse>(`${STAFF_ROUTES.applications}${toSearch(query)}`, 'GET'),
    // The table keeps the previous page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useStaffApplication(id: string) {
  return useQuery({
    queryKey: staffKeys.application(id),
    queryFn: () =>
      staffFetch<StaffApplicationResponse>(STAFF_ROUTES.application.replace(':id', id), 'GET'),
    // Each read is audited: read once per visit, not on every focus.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

const EXPORT_POLL_MS = 1000;

export function useStaffExports() {
  return useQuery({
    queryKey: staffKeys.exports,
    queryFn: () => staffFetch<StaffExportListResponse>(STAFF_EXPORT_ROUTES.exports, 'GET'),
    // Progress: poll while one runs.
    refetchInterval: (query) =>
      query.state.data?.exports.some((e) => e.status === 'running') ? EXPORT_POLL_MS : false,
  });
}

export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffExportBody) =>
      staffFetch<StaffExportResponse>(STAFF_EXPORT_ROUTES.exports, 'POST', body),
    onSuccess: (started) => {
      queryClient.setQueryData<StaffExportListResponse>(staffKeys.exports, (old) => ({
        exports: [started, ...(old?.exports ?? []).filter((e) => e.id !== started.id)],
      }));
      void queryClient.invalidateQueries({ queryKey: staffKeys.exports });
    },
  });
}
