// "Add a recommender" (issue #30): the invitation carries the applicant's FERPA answer, so the
// form says which answer will go, and until the question is answered it says where to answer it
// (the server refuses an invitation before: 409 FERPA_UNANSWERED).
import { useId, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import {
  CHECKLIST_MESSAGES,
  RECOMMENDATION_LINK_DAYS,
  RECOMMENDER_TYPES,
  type ChecklistResponse,
} from '@admissions/api-contract';
import { PATHS } from '../../../config/paths';
import { useAddRecommender } from '../api/recommenders';
import { ADD_RECOMMENDER_HEADING } from '../lib/checklist-texts';
import {
  checkRecommenderDraft,
  countRoom,
  EMPTY_DRAFT,
  RecommenderFields,
  toRecommenderBody,
  type DraftErrors,
  type RecommenderDraft,
} from './recommender-fields';

/** The FERPA question on Final Steps, where a `#key` link lands on it. */
export const FERPA_QUESTION_LINK = `${PATHS.finalSteps}#counselor_waiver_request`;

export function describeFerpaInvitation(waived: boolean): string {
  return waived
    ? 'Your answer to the FERPA question goes with each invitation: you waived your right to read the letter, and your recommender is told so.'
    : 'Your answer to the FERPA question goes with each invitation: you did not waive your right to read the letter, and your recommender is told so.';
}

export function AddRecommender({
  checklist,
  headingOrder,
  canAnswerFerpa,
}: {
  checklist: ChecklistResponse;
  headingOrder: 3 | 4;
  /** Whether the FERPA question can still be answered (Final Steps, before submit). */
  canAnswerFerpa: boolean;
}) {
  const add = useAddRecommender();
  const headingId = useId();
  const ferpaId = useId();
  const firstWithRoom = RECOMMENDER_TYPES.find(
    (type) => checklist.limits[type] > 0 && countRoom(checklist, type) > 0,
  );
  const [draft, setDraft] = useState<RecommenderDraft>({
    ...EMPTY_DRAFT,
    type: firstWithRoom ?? '',
  });
  const [errors, setErrors] = useState<DraftErrors>({});
  const [notice, setNotice] = useState('');
  const ferpa = checklist.ferpa_waived;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkRecommenderDraft(draft);
    setErrors(found);
    setNotice('');
    if (Object.keys(found).length > 0 || ferpa === null) return;
    const body = toRecommenderBody(draft);
    add.mutate(body, {
      onSuccess: (fresh) => {
        setNotice(
          `We e-mailed ${body.name} a link to send their letter. It works for ${RECOMMENDATION_LINK_DAYS} days.`,
        );
        const next = RECOMMENDER_TYPES.find(
          (type) => fresh.limits[type] > 0 && countRoom(fresh, type) > 0,
        );
        setDraft({ ...EMPTY_DRAFT, type: next ?? '' });
      },
    });
  };

  return (
    <section aria-labelledby={headingId} data-testid="add-recommender">
      <Title order={headingOrder} id={headingId} size="h4" mb="xs">
        {ADD_RECOMMENDER_HEADING}
      </Title>
      {ferpa === null ? (
        <Alert color="amber" id={ferpaId} data-testid="ferpa-unanswered" mb="sm">
          <Text size="sm">{CHECKLIST_MESSAGES.ferpaUnanswered}</Text>
          {canAnswerFerpa ? (
            <Anchor component={Link} to={FERPA_QUESTION_LINK} size="sm">
              Go to the FERPA question
            </Anchor>
          ) : null}
        </Alert>
      ) : (
        <Text size="sm" id={ferpaId} mb="sm" data-testid="ferpa-answer">
          {describeFerpaInvitation(ferpa)}
        </Text>
      )}
      {firstWithRoom === undefined ? (
        <Text size="sm" c="dimmed">
          You have invited as many recommenders as the admissions office takes.
        </Text>
      ) : (
        <form noValidate onSubmit={submit} aria-labelledby={headingId} aria-describedby={ferpaId}>
          <Stack gap="sm" maw="32rem">
            <RecommenderFields
              draft={draft}
              errors={errors}
              checklist={checklist}
              onChange={(next) => {
                setDraft(next);
                setNotice('');
                add.reset();
              }}
            />
            {add.isError ? (
              <Alert color="red" role="alert">
                {add.error.message}
              </Alert>
            ) : null}
            <Group>
              <Button type="submit" loading={add.isPending} disabled={ferpa === null}>
                Send invitation
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <Text size="sm" role="status" mt="xs" data-testid="add-recommender-notice">
        {notice}
      </Text>
    </section>
  );
}
