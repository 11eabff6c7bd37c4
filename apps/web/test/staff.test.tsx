// The staff area's pages (issue #18, docs/screens-and-routes.md "Staff area"): the sign-in page
// offers what the server has, a staff session that ends goes to the staff sign-in (never the
// applicant's /login), the list keeps its filters in the address and asks the server for them,
// and a reader is not offered exports.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  STAFF_MESSAGES,
  type StaffListResponse,
  type StaffMeResponse,
} from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { stubFetch, type RecordedCall } from './support/fetch-stub';

const SLOW = { timeout: 8000 };
const EXPORTER: StaffMeResponse = { email: 'officer@staff.example.edu', role: 'exporter' };
const READER: StaffMeResponse = { email: 'reader@staff.example.edu', role: 'reader' };

const LIST: StaffListResponse = {
  rows: [
    {
      id: '6f1c1d1e-0000-4000-8000-000000000001',
      status: 'submitted',
      submitted_at: '2026-11-20T10:00:00.000Z',
      name: 'Zoë Østergaard',
      email: 'zoe@example.org',
      entry_term: 'Fall 2027',
      major: 'Biology',
    },
  ],
  total: 1,
  page: 1,
  page_size: 25,
  counts: { started: 4, validating: 2, submitted: 1 },
};

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url.startsWith('/staff/api/applications'));

describe('the staff area', () => {
  it('sends a visitor without a staff session to the sign-in page, with the provider when configured', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: false } },
      'GET /staff/auth/methods': { body: { oidc: true } },
    });
    const { router } = renderApp({ path: '/staff?sign_in_error=refused' });
    const provider = await screen.findByRole(
      'link',
      { name: 'Sign in with your institution account' },
      SLOW,
    );
    expect(provider).toHaveAttribute('href', '/staff/auth/oidc/start');
    expect(router.state.location.pathname).toBe('/staff/sign-in');
    expect(screen.getByRole('alert')).toHaveTextContent(STAFF_MESSAGES.oidcRefused);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeInTheDocument();
  });

  it('offers no provider button when none is configured', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: false } },
      'GET /staff/auth/methods': { body: { oidc: false } },
    });
    renderApp({ path: '/staff/sign-in' });
    expect(await screen.findByRole('button', { name: 'Continue' }, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /institution account/ })).not.toBeInTheDocument();
  });

  it('lists with the counts, asks the server for a search, and keeps it in the address', async () => {
    const { calls } = stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...EXPORTER } },
      'GET /staff/api/applications': { body: LIST },
    });
    const { router, user } = renderApp({ path: '/staff' });
    const link = await screen.findByRole('link', { name: 'Zoë Østergaard' }, SLOW);
    expect(link).toHaveAttribute('href', `/staff/applications/${LIST.rows[0]!.id}`);
    const row = link.closest('tr')!;
    expect(within(row as HTMLElement).getByText('Fall 2027')).toBeInTheDocument();
    expect(screen.getByText('Started (4)')).toBeInTheDocument();
    expect(screen.getByText('All (7)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Exports' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Search by name or e-mail'), 'ostergaard');
    await waitFor(() => expect(router.state.location.search).toBe('?q=ostergaard'), SLOW);
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.url).toBe(
        '/staff/api/applications?q=ostergaard&sort=submitted_desc&page=1&page_size=25',
      ),
    );
  });

  it('sends a staff member whose session ended to the staff sign-in with the message, not to /login', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...READER } },
      'GET /staff/api/applications': {
        status: 401,
        body: { message: STAFF_MESSAGES.sessionInvalid },
      },
      'GET /staff/auth/methods': { body: { oidc: false } },
    });
    const { router } = renderApp({ path: '/staff?status=submitted' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/sign-in'), SLOW);
    expect(await screen.findByRole('alert')).toHaveTextContent(STAFF_MESSAGES.sessionInvalid);
  });

  it('does not offer exports to a reader, and says so on the page', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...READER } },
      'GET /staff/api/applications': { body: LIST },
    });
    renderApp({ path: '/staff/exports' });
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent(
      STAFF_MESSAGES.forbidden,
    );
    expect(screen.queryByRole('link', { name: 'Exports' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start export' })).not.toBeInTheDocument();
  });
});
