// The application's checklist on the staff application page (issue #30): every staff member reads
// it; a processor also asks the applicant for an item (title and message: one e-mail and an
// upload slot on the applicant's checklist) and waives an awaited one.
import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  STAFF_REQUEST_MESSAGE_MAX,
  type ChecklistItem,
  type StaffRole,
} from '@admissions/api-contract';
import { ChecklistItems, describeProgress, TextareaField } from '../../checklist';
import { AppModal } from '../../../shared/ui/app-modal';
import { useRequestStaffItem, useStaffChecklist, useWaiveStaffItem } from '../api/staff-api';

export const REQUEST_HEADING = 'Request an item';

export function ChecklistPanel({ id, role }: { id: string; role: StaffRole }) {
  const checklist = useStaffChecklist(id);
  const processor = role === 'processor';
  const [waiving, setWaiving] = useState<ChecklistItem | null>(null);
  const [notice, setNotice] = useState('');
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby="checklist-heading"
      data-testid="staff-checklist"
    >
      <Title order={2} size="h4" id="checklist-heading" mb="sm">
        Checklist
      </Title>
      {checklist.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text>Loading the checklist</Text>
        </Group>
      ) : checklist.isError ? (
        <Alert color="red" role="alert">
          {checklist.error.message}
        </Alert>
      ) : (
        <Stack gap="md">
          <Text size="sm" fw={600} data-testid="checklist-progress">
            {describeProgress(checklist.data)}
          </Text>
          <ChecklistItems
            checklist={checklist.data}
            audience="staff"
            headingOrder={3}
            {...(processor
              ? {
                  renderItemActions: (item: ChecklistItem) =>
                    // The office waives what is awaited, never the application itself.
                    item.status === 'awaiting' && item.kind !== 'application' ? (
                      <Group>
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Waive ${item.title}`}
                          onClick={() => {
                            setNotice('');
                            setWaiving(item);
                          }}
                        >
                          Waive
                        </Button>
                      </Group>
                    ) : null,
                }
              : {})}
          />
          <Text size="sm" role="status" data-testid="staff-checklist-notice">
            {notice}
          </Text>
          {processor ? <RequestItemForm id={id} onSent={setNotice} /> : null}
        </Stack>
      )}
      <WaiveDialog
        id={id}
        item={waiving}
        onClose={() => setWaiving(null)}
        onWaived={(title) => {
          setWaiving(null);
          setNotice(`${title} was waived.`);
        }}
      />
    </Paper>
  );
}

function WaiveDialog({
  id,
  item,
  onClose,
  onWaived,
}: {
  id: string;
  item: ChecklistItem | null;
  onClose: () => void;
  onWaived: (title: string) => void;
}) {
  const waive = useWaiveStaffItem(id);
  // Kept while the dialog closes, so its words do not vanish during the transition.
  const [shown, setShown] = useState(item);
  if (item && item !== shown) {
    setShown(item);
    waive.reset();
  }
  return (
    <AppModal opened={item !== null} onClose={onClose} title="Waive item">
      <Text>
        Waive “{shown?.title}”? It no longer counts as awaited, and the applicant is no longer asked
        for it.
      </Text>
      {waive.isError ? (
        <Alert color="red" role="alert" mt="sm">
          {waive.error.message}
        </Alert>
      ) : null}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          loading={waive.isPending}
          onClick={() => {
            if (!shown) return;
            void waive.mutateAsync(shown.id).then(
              () => onWaived(shown.title),
              () => undefined,
            );
          }}
        >
          Waive
        </Button>
      </Group>
    </AppModal>
  );
}

function RequestItemForm({ id, onSent }: { id: string; onSent: (message: string) => void }) {
  const request = useRequestStaffItem(id);
  const headingId = useId();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = title.trim();
    if (!wanted) {
      setError('Please name the item you are asking for.');
      return;
    }
    setError(undefined);
    request.mutate(
      { title: wanted, message: message.trim() },
      {
        onSuccess: () => {
          setTitle('');
          setMessage('');
          onSent(`The applicant was asked for ${wanted} by e-mail.`);
        },
      },
    );
  };

  return (
    <section aria-labelledby={headingId} data-testid="request-item">
      <Title order={3} size="h5" id={headingId} mb="xs">
        {REQUEST_HEADING}
      </Title>
      <form noValidate onSubmit={submit} aria-labelledby={headingId}>
        <Stack gap="sm" maw="40rem">
          <TextInput
            label="Item"
            description="What the applicant is asked to upload, e.g. Official transcript"
            required
            maxLength={120}
            value={title}
            onChange={(event) => {
              setTitle(event.currentTarget.value);
              request.reset();
            }}
            error={error}
          />
          <TextareaField
            label="Message to the applicant"
            value={message}
            onChange={(value) => {
              setMessage(value);
              request.reset();
            }}
            maxLength={STAFF_REQUEST_MESSAGE_MAX}
            rows={4}
          />
          {request.isError ? (
            <Alert color="red" role="alert">
              {request.error.message}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={request.isPending}>
              Send request
            </Button>
          </Group>
        </Stack>
      </form>
    </section>
  );
}
