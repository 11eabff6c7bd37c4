import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Checkbox, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@admissions/api-contract';
import { PATHS } from '../../../config/paths';
import { useChooseApplication } from '../api/choose-application';
import { useApplications } from '../api/get-applications';
import { PICKER_TEXTS } from '../lib/picker-texts';
import { describeTime, type ApplicationsView } from '../lib/round-clock';
import {
  describeApplicationStatus,
  describeEntryTerm,
  findNextRoundChange,
  hasRoundChoice,
  listRoundChoices,
} from '../lib/round-choices';
import { useServerNow } from '../lib/use-server-now';

/**
 * "Apply to another round" (docs/screens-and-routes.md): start an application in an open round,
 * or open one the applicant holds. Choosing makes it the current application (PUT
 * /api/application), every cached call is fetched again, and the applicant lands on it.
 */
export function RoundPicker() {
  const applications = useApplications();
  // Nothing to offer until the rounds have answered (or when they could not be read).
  return applications.data ? <RoundChoices view={applications.data} /> : null;
}

function RoundChoices({ view }: { view: ApplicationsView }) {
  const navigate = useNavigate();
  const choose = useChooseApplication();
  const [copy, setCopy] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const titleId = useId();
  const now = useServerNow(view, (at) => findNextRoundChange(view, at));
  if (!hasRoundChoice(view, now)) return null;
  const { startable, held } = listRoundChoices(view, now);

  const pick = (round: string, start: boolean) => {
    setChosen(round);
    choose.mutate(start && copy ? { round, copy_from_last: true } : { round }, {
      onSuccess: (next) => {
        const current = next.applications.find((a) => a.round === next.current);
        void navigate(current?.status === 'submitted' ? PATHS.completion : PATHS.about);
      },
    });
  };
  const busy = (round: string) => choose.isPending && chosen === round;

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      data-testid="round-picker"
      withBorder
      p="lg"
      mb="md"
      radius="md"
    >
      <Title order={2} size="h3" id={titleId}>
        {PICKER_TEXTS.title}
      </Title>
      {startable.length > 0 && (
        <Stack gap="sm" mt="sm">
          <Text>These rounds are open for applications:</Text>
          <List spacing="sm" listStyleType="none" ml={0} pl={0}>
            {startable.map((round) => (
              <List.Item key={round.code}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text>
                    <strong>{round.name}</strong> ({describeEntryTerm(round.entry_term)}), deadline{' '}
                    {describeTime(round.deadline, view.time_zone)}
                  </Text>
                  <Button
                    loading={busy(round.code)}
                    disabled={choose.isPending && !busy(round.code)}
                    onClick={() => pick(round.code, true)}
                  >
                    Start {round.name} application
                  </Button>
                </Group>
              </List.Item>
            ))}
          </List>
          {view.applications.length > 0 && (
            <Checkbox
              label={PICKER_TEXTS.copy}
              description={PICKER_TEXTS.copyNote}
              checked={copy}
              onChange={(event) => setCopy(event.currentTarget.checked)}
            />
          )}
        </Stack>
      )}
      {held.length > 0 && (
        <Stack gap="sm" mt="md">
          <Title order={3} size="h4">
            Your applications
          </Title>
          <List spacing="sm" listStyleType="none" ml={0} pl={0}>
            {held.map(({ application, round }) => {
              const name = round?.name ?? application.round;
              const isCurrent = application.round === view.current;
              return (
                <List.Item key={application.round}>
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Text>
                      <strong>{name}</strong>
                      {round ? ` (${describeEntryTerm(round.entry_term)})` : ''}:{' '}
                      {describeApplicationStatus(application, view.time_zone)}
                      {isCurrent ? ' — the application you have open' : ''}
                    </Text>
                    {!isCurrent && (
                      <Button
                        variant="outline"
                        loading={busy(application.round)}
                        disabled={choose.isPending && !busy(application.round)}
                        onClick={() => pick(application.round, false)}
                      >
                        Open {name} application
                      </Button>
                    )}
                  </Group>
                </List.Item>
              );
            })}
          </List>
        </Stack>
      )}
      {choose.isError && (
        // The server's own words (ROUND_NOT_OPEN, ROUND_CLOSED name the round and the time).
        <Alert color="red" mt="md" data-testid="round-picker-error">
          {choose.error instanceof Error ? choose.error.message : MESSAGES.unexpected}
        </Alert>
      )}
    </Paper>
  );
}
