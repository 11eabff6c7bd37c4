// The applicant's checklist (issue #30): on Final Steps below the questions, before submit, and on
// /completion below the success message. What has arrived, what is still awaited, the
// recommenders with what can be done for each, and the uploads the office asked for.
import '@mantine/core/styles/Badge.css';
import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Group, Loader, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ChecklistResponse } from '@admissions/api-contract';
import { checklistQueryKey, useChecklist } from '../api/get-checklist';
import { STATUS_LABELS } from '../lib/checklist-texts';
import { AddRecommender } from './add-recommender';
import { ChecklistItems, describeProgress } from './checklist-items';
import { RecommenderActions } from './recommender-actions';
import { UploadSlot } from './upload-slot';
import classes from './checklist.module.css';

export const CHECKLIST_HEADINGS = {
  'final-steps': 'Recommendations and checklist',
  completion: 'Your checklist',
} as const;

const INTRODUCTIONS = {
  'final-steps':
    'Invite your recommenders now: each gets an e-mail with a link to send a letter. After you submit, this checklist stays on your status page, where you can follow what has arrived.',
  completion:
    'What the admissions office has received and what it still needs. You can still invite recommenders, remind them, and upload what the office asks for.',
} as const;

export interface ApplicantChecklistProps {
  place: keyof typeof CHECKLIST_HEADINGS;
  /**
   * The FERPA question's saved answer ('Y', 'N', '') on Final Steps: the checklist is asked again
   * when it changes, since the server reads the saved answer. Undefined while a save is pending.
   */
  ferpaAnswer?: string | undefined;
}

export function ApplicantChecklist({ place, ferpaAnswer }: ApplicantChecklistProps) {
  const checklist = useChecklist();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [notice, setNotice] = useState('');
  const announcement = useStatusAnnouncement(checklist.data);

  // The answer was saved: the server's FERPA answer may have changed with it.
  const lastFerpa = useRef(ferpaAnswer);
  useEffect(() => {
    if (ferpaAnswer === undefined || ferpaAnswer === lastFerpa.current) return;
    lastFerpa.current = ferpaAnswer;
    void queryClient.invalidateQueries({ queryKey: checklistQueryKey });
  }, [ferpaAnswer, queryClient]);

  return (
    <section
      aria-labelledby={headingId}
      className={classes.panel}
      data-testid="applicant-checklist"
    >
      <Title order={2} id={headingId} size="h3" className={classes.heading} mb="xs">
        {CHECKLIST_HEADINGS[place]}
      </Title>
      <Text size="sm" mb="md">
        {INTRODUCTIONS[place]}
      </Text>
      <VisuallyHidden role="status" aria-live="polite" data-testid="checklist-announcement">
        {announcement}
      </VisuallyHidden>
      {checklist.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Loading your checklist</Text>
        </Group>
      ) : checklist.isError ? (
        <Alert color="red" role="alert">
          {checklist.error.message}
        </Alert>
      ) : (
        <Stack gap="lg">
          <Text size="sm" fw={600} data-testid="checklist-progress">
            {describeProgress(checklist.data)}
          </Text>
          <ChecklistItems
            checklist={checklist.data}
            audience="applicant"
            headingOrder={3}
            renderItemActions={(item) => <UploadSlot item={item} />}
            renderRecommenderActions={(recommender) => (
              <RecommenderActions
                recommender={recommender}
                checklist={checklist.data}
                onRemoved={setNotice}
              />
            )}
          />
          <Text size="sm" role="status" data-testid="checklist-notice">
            {notice}
          </Text>
          <AddRecommender
            checklist={checklist.data}
            headingOrder={3}
            canAnswerFerpa={place === 'final-steps'}
          />
        </Stack>
      )}
    </section>
  );
}

/**
 * Says politely what changed without the applicant's doing (WCAG 4.1.3): an item received while
 * the page is open (a converted upload, a recommender's letter), or waived by the office.
 */
function useStatusAnnouncement(checklist: ChecklistResponse | undefined): string {
  const signature = checklist?.items.map((item) => `${item.id}=${item.status}`).join(',') ?? '';
  const [tracked, setTracked] = useState({ signature, message: '' });
  if (tracked.signature !== signature) {
    const before = new Map(
      tracked.signature
        .split(',')
        .filter(Boolean)
        .map((entry) => entry.split('=') as [string, string]),
    );
    const changed = (checklist?.items ?? []).filter((item) => {
      const was = before.get(item.id);
      return was !== undefined && was !== item.status;
    });
    const message = changed
      .map((item) => `${item.title}: ${STATUS_LABELS[item.status].toLowerCase()}.`)
      .join(' ');
    setTracked({ signature, message: message || tracked.message });
  }
  return tracked.message;
}
