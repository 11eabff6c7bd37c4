// The staff area's webhook page (issue #31, docs/screens-and-routes.md "Staff area"): an exporter
// reads each subscription and its delivery log, is told subscriptions come from the command-line
// tool, and the log is asked for again while deliveries are pending; readers and processors are
// neither offered the page nor shown it.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  STAFF_MESSAGES,
  type StaffListResponse,
  type StaffMeResponse,
  type StaffRoundsResponse,
  type StaffWebhooksResponse,
} from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { stubFetch } from './support/fetch-stub';
import { SLOW } from './support/slow';

const EXPORTER: StaffMeResponse = { email: 'officer@staff.example.edu', role: 'exporter' };
const READER: StaffMeResponse = { email: 'reader@staff.example.edu', role: 'reader' };
const PROCESSOR: StaffMeResponse = { email: 'processor@staff.example.edu', role: 'processor' };

const APPLICATION_ID = '0b9f3c52-8d7e-4a61-9c1b-2f4e6d8a0c13';

const WEBHOOKS: StaffWebhooksResponse = {
  subscriptions: [
    {
      id: '5d2f9c1a-0000-4000-8000-000000000031',
      url: 'https://sis.example.edu/hooks/admissions',
      events: ['application.submitted', 'checklist.item_received'],
      created_at: '2026-06-01T12:00:00.000Z',
      removed_at: null,
      counts: { pending: 1, delivered: 1, failed: 0 },
      recent: [
        {
          id: 'msg_00000000000000000000000000000002',
          type: 'checklist.item_received',
          application_id: APPLICATION_ID,
          status: 'pending',
          attempts: 2,
          last_status_code: 500,
          last_error: 'The receiver answered 500.',
          created_at: '2026-06-15T12:00:00.000Z',
          last_attempt_at: '2026-06-15T12:00:30.000Z',
          next_attempt_at: '2026-06-15T12:01:30.000Z',
          delivered_at: null,
        },
        {
          id: 'msg_00000000000000000000000000000001',
          type: 'application.submitted',
          application_id: APPLICATION_ID,
          status: 'delivered',
          attempts: 1,
          last_status_code: 204,
          last_error: null,
          created_at: '2026-06-14T09:00:00.000Z',
          last_attempt_at: '2026-06-14T09:00:01.000Z',
          next_attempt_at: null,
          delivered_at: '2026-06-14T09:00:01.000Z',
        },
      ],
    },
    {
      id: '5d2f9c1a-0000-4000-8000-000000000032',
      url: 'https://old.example.edu/hooks',
      events: ['application.submitted'],
      created_at: '2026-05-01T12:00:00.000Z',
      removed_at: '2026-05-20T12:00:00.000Z',
      counts: { pending: 0, delivered: 0, failed: 0 },
      recent: [],
    },
  ],
};

const LIST: StaffListResponse = {
  rows: [],
  total: 0,
  page: 1,
  page_size: 25,
  counts: { started: 0, validating: 0, submitted: 0 },
};
const ROUNDS: StaffRoundsResponse = { time_zone: 'America/Chicago', rounds: [] };

/** As the page writes a moment: the exports list's format, in the browser's time zone. */
const shown = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

describe('the staff webhooks page', () => {
  it('lists each subscription with its counts and its deliveries, read-only with the CLI command', async () => {
    const { calls } = stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...EXPORTER } },
      'GET /staff/api/applications': { body: LIST },
      'GET /staff/api/rounds': { body: ROUNDS },
      'GET /staff/api/webhooks': { body: WEBHOOKS },
    });
    const { router, user } = renderApp({ path: '/staff' });
    await user.click(await screen.findByRole('link', { name: 'Webhooks' }, SLOW));
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' }, SLOW)).toBeVisible();
    expect(router.state.location.pathname).toBe('/staff/webhooks');
    expect(screen.getByTestId('webhooks-add-command')).toHaveTextContent(
      /npm run cli -- webhooks add --url https:\/\/\S+ .*--events application\.submitted/,
    );
    // Nothing to press but the header's Sign out: the page changes nothing.
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Sign out']);

    const subscription = await screen.findByRole(
      'region',
      { name: 'https://sis.example.edu/hooks/admissions' },
      SLOW,
    );
    expect(
      within(subscription).getByText('application.submitted, checklist.item_received'),
    ).toBeInTheDocument();
    expect(within(subscription).getByTestId('webhook-counts')).toHaveTextContent(
      '1 pending, 1 delivered, 0 failed',
    );
    const log = within(subscription).getByRole('table', { name: 'Latest deliveries' });
    expect(
      within(log)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Event',
      'Application',
      'Status',
      'Attempts',
      'Last HTTP status',
      'Last error',
      'Created',
      'Last attempt',
      'Next attempt',
      'Delivered',
    ]);
    const [, pending, delivered] = within(log).getAllByRole('row');
    expect(
      within(pending!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'checklist.item_received',
      APPLICATION_ID,
      'Pending',
      '2',
      '500',
      'The receiver answered 500.',
      shown('2026-06-15T12:00:00.000Z'),
      shown('2026-06-15T12:00:30.000Z'),
      shown('2026-06-15T12:01:30.000Z'),
      '—',
    ]);
    expect(within(delivered!).getByText('Delivered')).toBeInTheDocument();
    expect(within(delivered!).getByText('204')).toBeInTheDocument();
    expect(
      within(delivered!).getAllByText(shown('2026-06-14T09:00:01.000Z')).length,
    ).toBeGreaterThan(0);
    expect(within(pending!).getByRole('link', { name: APPLICATION_ID })).toHaveAttribute(
      'href',
      `/staff/applications/${APPLICATION_ID}`,
    );

    const removed = screen.getByRole('region', { name: 'https://old.example.edu/hooks' });
    expect(within(removed).getByText('Removed')).toBeInTheDocument();
    expect(within(removed).getByText(/nothing more is sent to it/)).toBeInTheDocument();
    expect(within(removed).getByText('Nothing sent yet.')).toBeInTheDocument();
    expect(within(removed).queryByRole('table')).not.toBeInTheDocument();

    // Asked once on opening; the periodic refresh (10 s) is not waited for here.
    expect(calls.filter((c) => c.url === '/staff/api/webhooks')).toHaveLength(1);
  });

  it('says there is no subscription yet, and how one is added', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...EXPORTER } },
      'GET /staff/api/webhooks': { body: { subscriptions: [] } },
    });
    renderApp({ path: '/staff/webhooks' });
    expect(await screen.findByText('No webhook subscriptions yet.', undefined, SLOW)).toBeVisible();
    expect(screen.getByTestId('webhooks-add-command')).toHaveTextContent('webhooks add');
  });

  it.each([
    ['reader', READER],
    ['processor', PROCESSOR],
  ])('is neither offered nor shown to a %s', async (_role, member) => {
    const { calls } = stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...member } },
    });
    renderApp({ path: '/staff/webhooks' });
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent(
      STAFF_MESSAGES.forbidden,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Staff' });
    expect(within(nav).queryByRole('link', { name: 'Webhooks' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Exports' })).not.toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url === '/staff/api/webhooks')).toBe(false));
  });
});
