// The checklist's items (issue #30), as the applicant and the office both read them: what is
// asked for, whether it is required, its status with the date it changed, the office's message,
// and the recommender who writes a recommendation. What each reader can do with an item comes
// from the caller (`renderItemActions`, `renderRecommenderActions`): the applicant's reminders and
// uploads, the office's waiver.
import type { ReactNode } from 'react';
import { Badge, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ChecklistItem, ChecklistResponse, Recommender } from '@admissions/api-contract';
import {
  describeFerpa,
  formatChecklistDate,
  formatChecklistTime,
  RECOMMENDER_STATUS_LABELS,
  RECOMMENDER_TYPE_LABELS,
  STATUS_COLORS,
  STATUS_LABELS,
  type ChecklistAudience,
} from '../lib/checklist-texts';
import { useNow } from '../lib/use-now';
import classes from './checklist.module.css';

export interface ChecklistItemsProps {
  checklist: ChecklistResponse;
  audience: ChecklistAudience;
  /** The items' heading level: one below the heading of the section that holds them. */
  headingOrder: 3 | 4;
  /** Under an item: what its reader can do with it (upload a file, waive it). */
  renderItemActions?: (item: ChecklistItem) => ReactNode;
  /** Under a recommender: what the applicant can do (remind, change, remove). */
  renderRecommenderActions?: (recommender: Recommender) => ReactNode;
}

/** "2 of 3 required items received or waived" / "Complete". */
export function describeProgress(checklist: ChecklistResponse): string {
  const required = checklist.items.filter((item) => item.required);
  const done = required.filter((item) => item.status !== 'awaiting').length;
  if (checklist.complete) return 'Complete: every required item has been received or waived.';
  return `${done} of ${required.length} required items received or waived.`;
}

export function ChecklistItems({
  checklist,
  audience,
  headingOrder,
  renderItemActions,
  renderRecommenderActions,
}: ChecklistItemsProps) {
  const byId = new Map(checklist.recommenders.map((r) => [r.id, r]));
  // A recommender every item names is shown with it; any other (none expected) is listed after.
  const named = new Set(checklist.items.flatMap((item) => item.recommender_id ?? []));
  const unnamed = checklist.recommenders.filter((r) => !named.has(r.id));
  return (
    <ul className={classes.list} data-testid="checklist-items">
      {checklist.items.map((item) => {
        const recommender = item.recommender_id ? byId.get(item.recommender_id) : undefined;
        return (
          <li
            key={item.id}
            className={classes.item}
            data-testid="checklist-item"
            data-item={item.id}
            data-status={item.status}
          >
            <Stack gap={6}>
              <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
                <Title order={headingOrder} className={classes.itemTitle}>
                  {item.title}
                  <VisuallyHidden>, {item.required ? 'required' : 'optional'}</VisuallyHidden>
                </Title>
                <Text size="sm" c="dimmed" aria-hidden>
                  {item.required ? 'Required' : 'Optional'}
                </Text>
              </Group>
              <Group gap="xs" wrap="wrap" data-testid="checklist-item-status">
                <Badge color={STATUS_COLORS[item.status]} variant="light">
                  {STATUS_LABELS[item.status]}
                </Badge>
                {statusDate(item) ? <Text size="sm">{statusDate(item)}</Text> : null}
              </Group>
              {item.message ? (
                <Stack gap={2}>
                  <Text size="sm" fw={600}>
                    Message from the admissions office
                  </Text>
                  <Text size="sm" component="p" className={classes.message}>
                    {item.message}
                  </Text>
                </Stack>
              ) : null}
              {item.kind === 'recommendation' && !recommender && item.status === 'awaiting' ? (
                <Text size="sm" c="dimmed">
                  {audience === 'applicant'
                    ? 'No one is invited for this letter yet.'
                    : 'The applicant has not invited anyone for this letter yet.'}
                </Text>
              ) : null}
              {recommender ? (
                <>
                  <RecommenderSummary recommender={recommender} audience={audience} />
                  {renderRecommenderActions?.(recommender)}
                </>
              ) : null}
              {audience === 'staff' && item.upload ? (
                <Text size="sm" c="dimmed" className={classes.text}>
                  {item.upload.status === 'converting'
                    ? `The applicant's file ${item.upload.file_name} is being converted.`
                    : `The applicant's file ${item.upload.file_name} could not be used: ${item.upload.message}`}
                </Text>
              ) : null}
              {renderItemActions?.(item)}
            </Stack>
          </li>
        );
      })}
      {unnamed.map((recommender) => (
        <li key={recommender.id} className={classes.item} data-testid="checklist-recommender">
          <Stack gap={6}>
            <RecommenderSummary recommender={recommender} audience={audience} />
            {renderRecommenderActions?.(recommender)}
          </Stack>
        </li>
      ))}
    </ul>
  );
}

/** When a received or waived item changed (date and time); none while it is awaited. */
function statusDate(item: ChecklistItem): string | undefined {
  const at =
    item.status === 'received'
      ? item.received_at
      : item.status === 'waived'
        ? item.waived_at
        : undefined;
  return at ? formatChecklistTime(at) : undefined;
}

/** Who writes the letter, where it stands, and the FERPA answer the invitation carried. */
export function RecommenderSummary({
  recommender,
  audience,
}: {
  recommender: Recommender;
  audience: ChecklistAudience;
}) {
  const reminders = recommender.reminders_sent;
  const expiresAt = Date.parse(recommender.link_expires_at);
  const expired = useNow(expiresAt) >= expiresAt;
  const expiry = formatChecklistDate(recommender.link_expires_at);
  const progress =
    recommender.status === 'received' && recommender.received_at
      ? `${RECOMMENDER_STATUS_LABELS.received} ${formatChecklistDate(recommender.received_at)}`
      : [
          `${RECOMMENDER_STATUS_LABELS.invited} ${formatChecklistDate(recommender.invited_at)}`,
          expired ? `the link expired ${expiry}` : `the link works until ${expiry}`,
          // `reminders_sent` counts the weekly automatic ones, not the applicant's.
          ...(reminders > 0
            ? [`${reminders} automatic reminder${reminders === 1 ? '' : 's'} sent`]
            : []),
        ].join(' · ');
  return (
    <Stack gap={2} data-testid="recommender" data-recommender={recommender.id}>
      <Text size="sm" className={classes.text}>
        <Text span fw={600} size="sm">
          {recommender.name}
        </Text>{' '}
        ({RECOMMENDER_TYPE_LABELS[recommender.type]}, {recommender.email})
      </Text>
      <Text size="sm" className={classes.text} data-testid="recommender-status">
        {progress}
      </Text>
      <Text size="sm" c="dimmed">
        {describeFerpa(recommender.ferpa_waived, audience)}
      </Text>
    </Stack>
  );
}
