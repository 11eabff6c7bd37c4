// The list's filters live in the address (?q=&round=&status=&from=&to=&checklist=&sort=&page=), so a reload, the
// back button and a shared link show the same list, and the exports page starts from it.
import {
  STAFF_SORTS,
  WEB_STATUSES,
  type StaffExportBody,
  type StaffListQuery,
  type StaffSort,
  type WebStatus,
} from '@admissions/api-contract';

export const STAFF_PAGE_SIZE = 25;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ListFilters {
  q: string;
  /** An admission round's code; '' for every round. */
  round: string;
  status: WebStatus | '';
  from: string;
  to: string;
}

/** The checklist filter (issue #30): every required item in, or some still awaited. */
export type ChecklistFilter = NonNullable<StaffListQuery['checklist']>;

export const CHECKLIST_FILTERS: readonly ChecklistFilter[] = ['complete', 'awaiting'];

export const CHECKLIST_FILTER_LABELS: Record<ChecklistFilter | '', string> = {
  '': 'Any checklist',
  complete: 'Complete',
  awaiting: 'Awaiting items',
};

/**
 * The list's state. The checklist filter is the list's only: an export's selection
 * (StaffExportBody) has no checklist filter, so it is not one of the filters an export takes.
 */
export interface ListState extends ListFilters {
  checklist: ChecklistFilter | '';
  sort: StaffSort;
  page: number;
}

function isChecklistFilter(value: string | null): value is ChecklistFilter {
  return (CHECKLIST_FILTERS as readonly string[]).includes(value ?? '');
}

/** "2 of 3", or "Complete" once every required item is received or waived. */
export function describeChecklistProgress({ done, required }: { done: number; required: number }) {
  return done >= required ? 'Complete' : `${done} of ${required}`;
}

function isStatus(value: string | null): value is WebStatus {
  return (WEB_STATUSES as readonly string[]).includes(value ?? '');
}

function isSort(value: string | null): value is StaffSort {
  return (STAFF_SORTS as readonly string[]).includes(value ?? '');
}

export function readListState(params: URLSearchParams): ListState {
  const status = params.get('status');
  const sort = params.get('sort');
  const checklist = params.get('checklist');
  const page = Number(params.get('page'));
  const date = (key: string) => {
    const value = params.get(key) ?? '';
    return ISO_DATE.test(value) ? value : '';
  };
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    // Only codes of the rounds the filter lists can be picked; a hand-edited one is the server's
    // to refuse (importing the code's pattern here cost /login's first visit a chunk of its own).
    round: (params.get('round') ?? '').slice(0, 20),
    status: isStatus(status) ? status : '',
    from: date('from'),
    to: date('to'),
    checklist: isChecklistFilter(checklist) ? checklist : '',
    sort: isSort(sort) ? sort : 'submitted_desc',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The address for a state; defaults are left out so the plain list is plain /staff. */
export function writeListState(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q);
  if (state.round) params.set('round', state.round);
  if (state.status) params.set('status', state.status);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.checklist) params.set('checklist', state.checklist);
  if (state.sort !== 'submitted_desc') params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

export function toListQuery(state: ListState): StaffListQuery {
  return {
    ...toExportFilters(state),
    ...(state.checklist ? { checklist: state.checklist } : {}),
    sort: state.sort,
    page: state.page,
    page_size: STAFF_PAGE_SIZE,
  };
}

/** The selection an export takes: the list's filters without the order and the page. */
export function toExportFilters(
  filters: ListFilters,
): Pick<StaffListQuery, 'q' | 'round' | 'status' | 'from' | 'to'> {
  const selection: Pick<StaffListQuery, 'q' | 'round' | 'status' | 'from' | 'to'> = {};
  if (filters.q.trim()) selection.q = filters.q.trim();
  if (filters.round) selection.round = filters.round;
  if (filters.status) selection.status = filters.status;
  if (filters.from) selection.from = filters.from;
  if (filters.to) selection.to = filters.to;
  return selection;
}

export const STATUS_LABELS: Record<WebStatus, string> = {
  started: 'Started',
  validating: 'Validating',
  submitted: 'Submitted',
};

export const EVERY_STATUS = 'Every status';

/** "Submitted, 'zoe', from 2026-11-01": how a selection reads in the exports list. */
export function describeSelection(filters: StaffExportBody['filters']): string {
  // No status: an export recorded before it defaulted to submitted, which took every status.
  const { status } = filters;
  const parts: string[] = [status && status !== 'all' ? STATUS_LABELS[status] : EVERY_STATUS];
  if (filters.round) parts.push(`round ${filters.round}`);
  if (filters.q) parts.push(`matching “${filters.q}”`);
  if (filters.from) parts.push(`submitted from ${filters.from}`);
  if (filters.to) parts.push(`submitted to ${filters.to}`);
  return parts.join(', ');
}
