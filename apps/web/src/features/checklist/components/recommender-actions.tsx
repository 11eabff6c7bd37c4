// What the applicant can do with a recommender who has not sent the letter yet (issue #30):
// remind them (once a day: the button waits for `remind_after`), change their name, kind or
// e-mail (a new e-mail sends a new link and the old one stops working), or remove them.
import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import {
  CHECKLIST_MESSAGES,
  type ChecklistResponse,
  type Recommender,
} from '@admissions/api-contract';
import { AppModal } from '../../../shared/ui/app-modal';
import {
  useRemindRecommender,
  useRemoveRecommender,
  useUpdateRecommender,
} from '../api/recommenders';
import { formatChecklistTime, formatWait, NEW_EMAIL_NOTICE } from '../lib/checklist-texts';
import { useNow } from '../lib/use-now';
import {
  checkRecommenderDraft,
  RecommenderFields,
  toRecommenderBody,
  type DraftErrors,
  type RecommenderDraft,
} from './recommender-fields';

/** "You can send another reminder in 23 hours 5 minutes (November 21, 2026 at 10:00 AM CST)." */
export function describeReminderWait(remindAfter: string, now: number): string {
  const wait = formatWait(Date.parse(remindAfter) - now);
  return `You can send another reminder in ${wait} (${formatChecklistTime(remindAfter)}).`;
}

export function RecommenderActions({
  recommender,
  checklist,
  onRemoved,
}: {
  recommender: Recommender;
  checklist: ChecklistResponse;
  /** Said where the row was, once it is gone. */
  onRemoved: (message: string) => void;
}) {
  const remind = useRemindRecommender();
  const remove = useRemoveRecommender();
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const waitId = useId();
  const remindAt = recommender.remind_after ? Date.parse(recommender.remind_after) : null;
  const now = useNow(remindAt, { everyMinute: true });
  const waiting = remindAt !== null && remindAt > now;
  // docs/checklist.md: with the link expired, Remind sends a new one (a new invitation).
  const expired = Date.parse(recommender.link_expires_at) <= now;
  if (recommender.status === 'received') return null;

  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant="light"
          disabled={waiting}
          loading={remind.isPending}
          aria-label={`Remind ${recommender.name}`}
          aria-describedby={waiting ? waitId : undefined}
          onClick={() => {
            setNotice('');
            remind.mutate(recommender.id, {
              onSuccess: () => setNotice(CHECKLIST_MESSAGES.reminderSent),
            });
          }}
        >
          Remind
        </Button>
        <Button
          size="xs"
          variant="default"
          aria-label={`Change ${recommender.name}`}
          onClick={() => setEditing(true)}
        >
          Change
        </Button>
        <Button
          size="xs"
          variant="default"
          color="red"
          aria-label={`Remove ${recommender.name}`}
          onClick={() => setRemoving(true)}
        >
          Remove
        </Button>
      </Group>
      {waiting && recommender.remind_after ? (
        <Text size="sm" c="dimmed" id={waitId} data-testid="reminder-wait">
          {describeReminderWait(recommender.remind_after, now)}
        </Text>
      ) : null}
      {expired && !waiting ? (
        <Text size="sm" c="dimmed" data-testid="link-expired">
          The link has expired: Remind sends {recommender.name} a new one.
        </Text>
      ) : null}
      {remind.isError ? (
        <Alert color="red" role="alert">
          {remind.error.message}
        </Alert>
      ) : null}
      <Text size="sm" role="status">
        {notice}
      </Text>
      <EditRecommenderDialog
        opened={editing}
        onClose={() => setEditing(false)}
        recommender={recommender}
        checklist={checklist}
        onSaved={(message) => {
          setEditing(false);
          setNotice(message);
        }}
      />
      <AppModal opened={removing} onClose={() => setRemoving(false)} title="Remove recommender">
        <Text>
          Remove {recommender.name}? Their link stops working, and they can no longer send a letter
          for you.
        </Text>
        {remove.isError ? (
          <Alert color="red" role="alert" mt="sm">
            {remove.error.message}
          </Alert>
        ) : null}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setRemoving(false)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              // The row is gone once the fresh checklist arrives: a promise, not mutate's
              // callbacks, which do not run for a component that has unmounted.
              void remove.mutateAsync(recommender.id).then(
                () => onRemoved(CHECKLIST_MESSAGES.recommenderRemoved),
                () => undefined,
              )
            }
          >
            Remove
          </Button>
        </Group>
      </AppModal>
    </Stack>
  );
}

function EditRecommenderDialog({
  opened,
  onClose,
  recommender,
  checklist,
  onSaved,
}: {
  opened: boolean;
  onClose: () => void;
  recommender: Recommender;
  checklist: ChecklistResponse;
  onSaved: (message: string) => void;
}) {
  const update = useUpdateRecommender();
  const noticeId = useId();
  const initial: RecommenderDraft = {
    type: recommender.type,
    name: recommender.name,
    email: recommender.email,
  };
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  // Opened again: start from the recommender as they are now.
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setDraft(initial);
      setErrors({});
      update.reset();
    }
  }
  const emailChanged = draft.email.trim().toLowerCase() !== recommender.email.toLowerCase();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkRecommenderDraft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = toRecommenderBody(draft);
    update.mutate(
      { id: recommender.id, body },
      {
        onSuccess: () =>
          onSaved(
            emailChanged
              ? `We sent a new link to ${body.email}. The link sent to ${recommender.email} no longer works.`
              : 'Your changes were saved.',
          ),
      },
    );
  };

  return (
    <AppModal opened={opened} onClose={onClose} title="Change recommender" size="s">
      <form noValidate onSubmit={submit} aria-describedby={noticeId}>
        <Stack gap="sm">
          <Text size="sm" id={noticeId}>
            {NEW_EMAIL_NOTICE}
          </Text>
          <RecommenderFields
            draft={draft}
            errors={errors}
            checklist={checklist}
            editing={recommender.id}
            onChange={(next) => {
              setDraft(next);
              update.reset();
            }}
          />
          {update.isError ? (
            <Alert color="red" role="alert">
              {update.error.message}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              {emailChanged ? 'Save and send a new link' : 'Save'}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
