// The checklist, computed: from the partner's recommendation settings, the application's
// submission, its recommenders, the office's requests and waivers. The one statement of which
// items an application owes; the staff list's SQL (checklist-progress.ts) counts the same way and
// a test holds the two together.
import type { ChecklistItem, RecommenderType } from '@admissions/api-contract';
import type { PartnerConfig } from '@admissions/form';
import type { checklistRequests, recommenders } from './schema';

export type RecommenderRow = typeof recommenders.$inferSelect;
export type RequestRow = typeof checklistRequests.$inferSelect;
export type RecommendationSettings = PartnerConfig['recommendations'];

export interface ChecklistFacts {
  submittedAt: Date | null;
  /** Live recommenders (not removed), oldest first. */
  recommenders: readonly RecommenderRow[];
  requests: readonly RequestRow[];
  /** Waived item ids with when. */
  waivers: ReadonlyMap<string, Date>;
  settings: RecommendationSettings;
}

export const APPLICATION_ITEM = 'application';
export const COUNSELOR_ITEM = 'counselor';
export const COUNSELOR_TITLE = 'Counselor recommendation and school report';

export const teacherItemId = (n: number) => `teacher-${n}`;
export const requestItemId = (id: string) => `request-${id}`;
export const otherItemId = (id: string) => `other-${id}`;

/** How many recommenders of each type the applicant may name. */
export function countRecommenderLimits(
  settings: RecommendationSettings,
): Record<RecommenderType, number> {
  return {
    counselor: 1,
    teacher: settings.teachersRequired + settings.teachersOptional,
    other: settings.otherOptional,
  };
}

/** "Recommendation — Ada Lovelace": the staff PDF's bookmark and section title of a letter. */
export function formatRecommendationTitle(name: string): string {
  return `Recommendation — ${name}`;
}

function settle(
  item: Omit<ChecklistItem, 'status'>,
  receivedAt: Date | null,
  waivedAt: Date | undefined,
): ChecklistItem {
  if (receivedAt) return { ...item, status: 'received', received_at: receivedAt.toISOString() };
  if (waivedAt) return { ...item, status: 'waived', waived_at: waivedAt.toISOString() };
  return { ...item, status: 'awaiting' };
}

function describeUpload(row: {
  conversionStatus: string | null;
  conversionMessage: string | null;
  fileName: string | null;
}): ChecklistItem['upload'] {
  if (row.conversionStatus !== 'converting' && row.conversionStatus !== 'failed') return undefined;
  return {
    status: row.conversionStatus,
    message: row.conversionMessage ?? '',
    file_name: row.fileName ?? '',
  };
}

/** The items in the order the applicant reads them; `complete` when no required item is owed. */
export function buildChecklist(facts: ChecklistFacts): {
  items: ChecklistItem[];
  complete: boolean;
} {
  const { settings, waivers } = facts;
  const items: ChecklistItem[] = [
    settle(
      {
        id: APPLICATION_ITEM,
        kind: 'application',
        title: 'Application',
        required: true,
        uploadable: false,
      },
      facts.submittedAt,
      undefined,
    ),
  ];
  const ofType = (type: RecommenderType) => facts.recommenders.filter((r) => r.type === type);

  const counselor = ofType('counselor')[0];
  if (settings.counselorRequired || counselor) {
    items.push(
      settle(
        {
          id: COUNSELOR_ITEM,
          kind: 'recommendation',
          title: COUNSELOR_TITLE,
          required: settings.counselorRequired,
          uploadable: false,
          ...(counselor ? { recommender_id: counselor.id } : {}),
        },
        counselor?.submittedAt ?? null,
        waivers.get(COUNSELOR_ITEM),
      ),
    );
  }
  const teachers = ofType('teacher');
  const teacherSlots = settings.teachersRequired + settings.teachersOptional;
  for (let n = 1; n <= teacherSlots; n++) {
    const teacher = teachers[n - 1];
    const required = n <= settings.teachersRequired;
    // An optional slot nobody fills is not shown: there is nothing to wait for.
    if (!required && !teacher) continue;
    items.push(
      settle(
        {
          id: teacherItemId(n),
          kind: 'recommendation',
          title: teacherSlots > 1 ? `Teacher recommendation ${n}` : 'Teacher recommendation',
          required,
          uploadable: false,
          ...(teacher ? { recommender_id: teacher.id } : {}),
        },
        teacher?.submittedAt ?? null,
        waivers.get(teacherItemId(n)),
      ),
    );
  }
  for (const other of ofType('other')) {
    const id = otherItemId(other.id);
    items.push(
      settle(
        {
          id,
          kind: 'recommendation',
          title: 'Other recommendation',
          required: false,
          uploadable: false,
          recommender_id: other.id,
        },
        other.submittedAt,
        waivers.get(id),
      ),
    );
  }
  for (const request of facts.requests) {
    const id = requestItemId(request.id);
    const waivedAt = waivers.get(id);
    const upload = describeUpload(request);
    items.push(
      settle(
        {
          id,
          kind: 'request',
          title: request.title,
          required: true,
          message: request.message,
          uploadable: !request.receivedAt && !waivedAt,
          ...(upload && !request.receivedAt ? { upload } : {}),
        },
        request.receivedAt,
        waivedAt,
      ),
    );
  }
  const complete = items.every((item) => !item.required || item.status !== 'awaiting');
  return { items, complete };
}
