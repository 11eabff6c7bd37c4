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
  type StaffRoundsResponse,
} from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { stubFetch, type RecordedCall } from './support/fetch-stub';
import { SLOW } from './support/slow';

const EXPORTER: StaffMeResponse = { email: 'officer@staff.example.edu', role: 'exporter' };
const READER: StaffMeResponse = { email: 'reader@staff.example.edu', role: 'reader' };

const LIST: StaffListResponse = {
  rows: [
    {
      id: '6f1c1d1e-0000-4000-8000-000000000001',
      round: 'EA',
      status: 'submitted',
      submitted_at: '2026-11-20T10:00:00.000Z',
      name: 'Zoë Østergaard',
      email: 'zoe@example.org',
      entry_term: 'Fall 2027',
      major: 'Biology',
      external_id: null,
      checklist: { done: 1, required: 3 },
    },
  ],
  total: 1,
  page: 1,
  page_size: 25,
  counts: { started: 4, validating: 2, submitted: 1 },
};

const ROUNDS: StaffRoundsResponse = {
  time_zone: 'America/Chicago',
  rounds: [
    {
      code: 'EA',
      name: 'Early Action',
      entry_term: '2027FA',
      opens_at: '2026-08-01T05:00:00.000Z',
      deadline: '2026-11-02T05:59:00.000Z',
      closes_at: '2026-11-02T06:29:00.000Z',
      open: false,
      applications: 5,
      submitted: 1,
    },
    {
      code: 'RD',
      name: 'Regular Decision',
      entry_term: '2027FA',
      opens_at: '2026-08-01T05:00:00.000Z',
      deadline: '2027-01-16T05:59:00.000Z',
      closes_at: '2027-01-16T05:59:00.000Z',
      open: true,
      applications: 2,
      submitted: 0,
    },
  ],
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
      'GET /staff/api/rounds': { body: ROUNDS },
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

  it('filters by round in the address and the request, and lists the rounds in the institution time zone', async () => {
    const { calls } = stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...EXPORTER } },
      'GET /staff/api/applications': { body: LIST },
      'GET /staff/api/rounds': { body: ROUNDS },
      'GET /staff/api/exports': { body: { exports: [] } },
    });
    const { router, user } = renderApp({ path: '/staff' });
    const link = await screen.findByRole('link', { name: 'Zoë Østergaard' }, SLOW);
    expect(within(link.closest('tr') as HTMLElement).getByText('EA')).toBeInTheDocument();

    const rounds = await screen.findByRole('region', { name: 'Admission rounds' }, SLOW);
    const early = within(rounds).getByText('Early Action').closest('tr') as HTMLElement;
    expect(within(early).getByText('November 1, 2026 at 11:59 PM CST')).toBeInTheDocument();
    expect(
      within(early).getByText('taken until November 2, 2026 at 12:29 AM CST'),
    ).toBeInTheDocument();
    expect(within(early).getByText('August 1, 2026 at 12:00 AM CDT')).toBeInTheDocument();
    expect(within(early).getByText('5')).toBeInTheDocument();
    const regular = within(rounds).getByText('Regular Decision').closest('tr') as HTMLElement;
    expect(within(regular).getByText('January 15, 2027 at 11:59 PM CST')).toBeInTheDocument();
    expect(within(regular).queryByText(/taken until/)).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Round'), 'Regular Decision (RD)');
    await waitFor(() => expect(router.state.location.search).toBe('?round=RD'), SLOW);
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.url).toBe(
        '/staff/api/applications?round=RD&sort=submitted_desc&page=1&page_size=25',
      ),
    );
    // The export form starts from the list's selection, round included.
    await user.click(screen.getByRole('link', { name: 'Export this selection' }));
    expect(await screen.findByLabelText('Round', undefined, SLOW)).toHaveValue('RD');
  });

  it('sends a staff member whose session ended to the staff sign-in with the message, not to /login', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...READER } },
      'GET /staff/api/applications': {
        status: 401,
        body: { message: STAFF_MESSAGES.sessionInvalid },
      },
      'GET /staff/api/rounds': { status: 401, body: { message: STAFF_MESSAGES.sessionInvalid } },
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
      'GET /staff/api/rounds': { body: ROUNDS },
    });
    renderApp({ path: '/staff/exports' });
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent(
      STAFF_MESSAGES.forbidden,
    );
    expect(screen.queryByRole('link', { name: 'Exports' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start export' })).not.toBeInTheDocument();
  });
});
