import { useId } from 'react';
import { Alert, Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import {
  WEBHOOK_RECENT_DELIVERIES,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookSubscription,
} from '@admissions/api-contract';
import { useStaffWebhooks } from '../api/staff-api';
import { formatStaffTime } from '../lib/format-staff-time';
import { STAFF_PATHS } from '../lib/staff-paths';
import { ExporterPage } from './staff-layout';
import classes from './staff.module.css';

// docs/webhooks.md: subscriptions are the operator's, made on the server with the CLI; the page
// shows the command rather than a form, so nobody looks for a button that is not there.
const ADD_COMMAND =
  'npm run cli -- webhooks add --url https://sis.example.edu/hooks/admissions \\\n' +
  '  --events application.submitted,checklist.item_received';
const REMOVE_COMMAND = 'npm run cli -- webhooks remove --id <id>';

const DELIVERY_STATUS: Record<WebhookDeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'amber' },
  delivered: { label: 'Delivered', color: 'brown' },
  failed: { label: 'Failed', color: 'red' },
};

/**
 * /staff/webhooks (exporters, issue #31): each subscription of the student system with its
 * deliveries counted by status and its latest deliveries. Read-only; readers and processors are
 * told their role does not allow it, and the server refuses them anyway.
 */
export function WebhooksPage() {
  return (
    <ExporterPage title="Webhooks">
      <HowToSubscribe />
      <SubscriptionList />
    </ExporterPage>
  );
}

function HowToSubscribe() {
  return (
    <Stack gap="xs">
      <Text>
        Signed events sent to the student system when an application is submitted, a checklist item
        arrives or a submitted application changes. This page only shows them: an operator adds a
        subscription on the server with the command-line tool, which prints its signing secret once:
      </Text>
      <pre className={classes.command} data-testid="webhooks-add-command">
        {ADD_COMMAND}
      </pre>
      <Text size="sm" c="dimmed">
        To stop one: <span className={classes.code}>{REMOVE_COMMAND}</span>
      </Text>
    </Stack>
  );
}

function SubscriptionList() {
  const webhooks = useStaffWebhooks();
  if (webhooks.isError) {
    return (
      <Alert color="red" role="alert">
        {webhooks.error.message}
      </Alert>
    );
  }
  if (!webhooks.data) return null;
  if (webhooks.data.subscriptions.length === 0) {
    return <Text data-testid="webhooks-empty">No webhook subscriptions yet.</Text>;
  }
  return (
    <Stack gap="lg">
      {webhooks.data.subscriptions.map((subscription) => (
        <SubscriptionCard key={subscription.id} subscription={subscription} />
      ))}
    </Stack>
  );
}

function SubscriptionCard({ subscription }: { subscription: WebhookSubscription }) {
  const headingId = useId();
  const logId = useId();
  const { counts } = subscription;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby={headingId}
      data-testid="webhook-subscription"
      data-subscription-id={subscription.id}
    >
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={2} size="h4" id={headingId} className={classes.code}>
            {subscription.url}
          </Title>
          {subscription.removed_at && (
            <Badge color="gray" variant="light">
              Removed
            </Badge>
          )}
        </Group>
        <Text size="sm">
          Events: <span className={classes.code}>{subscription.events.join(', ')}</span>
        </Text>
        <Text size="sm">
          Created <TimeText iso={subscription.created_at} />
          {subscription.removed_at && (
            <>
              ; removed <TimeText iso={subscription.removed_at} />, nothing more is sent to it
            </>
          )}
          . Id: <span className={classes.code}>{subscription.id}</span>
        </Text>
        <Text size="sm" data-testid="webhook-counts">
          {counts.pending} pending, {counts.delivered} delivered, {counts.failed} failed
        </Text>
        <Title order={3} size="h5" id={logId}>
          Latest deliveries
        </Title>
        {subscription.recent.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing sent yet.
          </Text>
        ) : (
          <>
            <Text size="xs" c="dimmed">
              The {WEBHOOK_RECENT_DELIVERIES} newest at most, newest first.
            </Text>
            <Table.ScrollContainer minWidth={1100}>
              <Table verticalSpacing="xs" aria-labelledby={logId} data-testid="webhook-deliveries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Event</Table.Th>
                    <Table.Th scope="col">Application</Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                    <Table.Th scope="col">Attempts</Table.Th>
                    <Table.Th scope="col">Last HTTP status</Table.Th>
                    <Table.Th scope="col">Last error</Table.Th>
                    <Table.Th scope="col">Created</Table.Th>
                    <Table.Th scope="col">Last attempt</Table.Th>
                    <Table.Th scope="col">Next attempt</Table.Th>
                    <Table.Th scope="col">Delivered</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {subscription.recent.map((delivery) => (
                    <DeliveryRow key={delivery.id} delivery={delivery} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const status = DELIVERY_STATUS[delivery.status];
  return (
    <Table.Tr data-delivery-id={delivery.id} data-status={delivery.status}>
      <Table.Td className={classes.code}>{delivery.type}</Table.Td>
      <Table.Td>
        <Anchor
          component={Link}
          to={STAFF_PATHS.application(delivery.application_id)}
          size="sm"
          className={classes.code}
        >
          {delivery.application_id}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Badge color={status.color} variant="light">
          {status.label}
        </Badge>
      </Table.Td>
      <Table.Td>{delivery.attempts}</Table.Td>
      <Table.Td>{delivery.last_status_code ?? <Dash />}</Table.Td>
      <Table.Td>{delivery.last_error ?? <Dash />}</Table.Td>
      <Table.Td>
        <TimeText iso={delivery.created_at} />
      </Table.Td>
      <Table.Td>
        {delivery.last_attempt_at ? <TimeText iso={delivery.last_attempt_at} /> : <Dash />}
      </Table.Td>
      <Table.Td>
        {delivery.next_attempt_at ? <TimeText iso={delivery.next_attempt_at} /> : <Dash />}
      </Table.Td>
      <Table.Td>
        {delivery.delivered_at ? <TimeText iso={delivery.delivered_at} /> : <Dash />}
      </Table.Td>
    </Table.Tr>
  );
}

function TimeText({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatStaffTime(iso)}</time>;
}

/** Not yet, or not for this delivery (as the exports list shows an empty cell). */
function Dash() {
  return (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}
