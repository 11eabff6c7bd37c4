// What the staff PDF appends after the application (issue #30): one section per received item,
// letters first (with the recommender's structured answers), then the materials the office asked
// for. Only the staff copy reads this; the applicant's own PDF never does.
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { formatRecommendationTitle } from './checklist-rules';
import { checklistRequests, recommenders } from './schema';

export interface ReceivedChecklistItem {
  kind: 'recommendation' | 'request';
  /** The section's heading and bookmark: "Recommendation — <name>", or the request's title. */
  title: string;
  receivedAt: Date;
  /** Label and value rows shown above the document. */
  details: { label: string; value: string }[];
  /** The converted PDF in storage, or null for a typed letter. */
  pdfKey: string | null;
  /** A typed letter. */
  text: string | null;
}

const TYPE_LABELS: Record<string, string> = {
  counselor: 'School counselor',
  teacher: 'Teacher',
  other: 'Other',
};
const TYPE_ORDER: Record<string, number> = { counselor: 0, teacher: 1, other: 2 };

export async function readReceivedItems(
  db: Db,
  applicationId: string,
): Promise<ReceivedChecklistItem[]> {
  const [letters, materials] = await Promise.all([
    db
      .select()
      .from(recommenders)
      .where(
        and(
          eq(recommenders.applicationId, applicationId),
          isNull(recommenders.removedAt),
          isNotNull(recommenders.submittedAt),
        ),
      )
      .orderBy(asc(recommenders.createdAt), asc(recommenders.id)),
    db
      .select()
      .from(checklistRequests)
      .where(
        and(
          eq(checklistRequests.applicationId, applicationId),
          isNotNull(checklistRequests.receivedAt),
        ),
      )
      .orderBy(asc(checklistRequests.requestedAt), asc(checklistRequests.id)),
  ]);
  letters.sort((a, b) => (TYPE_ORDER[a.type] ?? 9) - (TYPE_ORDER[b.type] ?? 9));
  return [
    ...letters.map((r): ReceivedChecklistItem => ({
      kind: 'recommendation',
      title: formatRecommendationTitle(r.name),
      receivedAt: r.submittedAt!,
      details: [
        { label: 'Recommender', value: `${r.name} (${TYPE_LABELS[r.type] ?? r.type})` },
        { label: 'E-mail', value: r.email },
        {
          label: 'Has known the applicant for',
          value:
            r.knownYears === null ? '' : `${r.knownYears} year${r.knownYears === 1 ? '' : 's'}`,
        },
        { label: 'In what capacity', value: r.capacity ?? '' },
        {
          label: 'FERPA',
          value: r.ferpaWaived
            ? 'The applicant waived the right to read this letter'
            : 'The applicant did not waive the right to read this letter',
        },
        { label: 'Received', value: r.submittedAt!.toISOString().slice(0, 10) },
      ],
      pdfKey: r.letterPdfKey,
      text: r.letterPdfKey ? null : r.letterText,
    })),
    ...materials.map((q): ReceivedChecklistItem => ({
      kind: 'request',
      title: q.title,
      receivedAt: q.receivedAt!,
      details: [
        { label: 'Requested by the office', value: q.requestedAt.toISOString().slice(0, 10) },
        ...(q.message ? [{ label: 'Message', value: q.message }] : []),
        { label: 'File', value: q.fileName ?? '' },
        { label: 'Received', value: q.receivedAt!.toISOString().slice(0, 10) },
      ],
      pdfKey: q.pdfKey,
      text: null,
    })),
  ];
}
