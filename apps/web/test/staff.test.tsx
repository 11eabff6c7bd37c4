// The staff area's pages (issue #18, docs/screens-and-routes.md "Staff area"): the sign-in page
// offers what the server has, a staff session that ends goes to the staff sign-in (never the
// applicant's /login), the list keeps its filters in the address and asks the server for them,
// a reader is not offered exports, and a data export takes the identifiers only with a reason.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  STAFF_EXPORT_MESSAGES,
  STAFF_MESSAGES,
  type StaffExportBody,
  type StaffExportResponse,
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

  it('offers the identifiers only with a data file, asks for a reason in the server’s words, then sends both', async () => {
    const started: StaffExportResponse = {
      id: '9e0b5a77-0000-4000-8000-000000000001',
      status: 'running',
      format: 'csv',
      include_sensitive: true,
      selected: 1,
      done: 0,
      rendered: 0,
      unchanged: 0,
      failed: 0,
      message: '',
      filters: { status: 'submitted' },
      created_at: '2026-11-21T10:00:00.000Z',
      finished_at: null,
      download_url: '',
    };
    const listed: StaffExportResponse[] = [];
    const { calls } = stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...EXPORTER } },
      'GET /staff/api/rounds': { body: ROUNDS },
      'GET /staff/api/exports': () => ({ body: { exports: listed } }),
      'POST /staff/api/exports': (call) => {
        const body = call.body as StaffExportBody;
        const answer: StaffExportResponse = {
          ...started,
          id: `${started.id.slice(0, -1)}${listed.length + 1}`,
          format: body.format,
          include_sensitive: body.include_sensitive === true,
        };
        listed.unshift(answer);
        return { status: 202, body: answer };
      },
    });
    const { user } = renderApp({ path: '/staff/exports' });
    const format = await screen.findByLabelText('What to download', undefined, SLOW);
    const sensitiveLabel = 'Include Social Security and alien registration numbers';
    // A PDF export never holds them.
    expect(screen.queryByLabelText(sensitiveLabel)).not.toBeInTheDocument();
    await user.selectOptions(format, 'Data file (CSV): one row per application');
    await user.click(screen.getByLabelText(sensitiveLabel));
    const reason = screen.getByRole('textbox', { name: /Reason \(kept in the audit log\)/ });
    expect(reason).toBeRequired();

    // Blank (spaces only, as the server trims): refused before anything is sent.
    await user.type(reason, '   ');
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(reason).toHaveAccessibleDescription(
      expect.stringContaining(STAFF_EXPORT_MESSAGES.reasonRequired),
    );
    expect(reason).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.type(reason, 'Deposit paid: loading into the student system');
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1), SLOW);
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      filters: { status: 'submitted' },
      format: 'csv',
      force: false,
      include_sensitive: true,
      reason: 'Deposit paid: loading into the student system',
    });
    const row = await screen.findByRole('row', { name: /Data \(CSV\)/ }, SLOW);
    expect(within(row).getByText('With SSN and A-Number')).toBeInTheDocument();
    expect(screen.getAllByText('With SSN and A-Number')).toHaveLength(1);

    // Back to a PDF: the option goes, and nothing of it is sent.
    await user.selectOptions(format, 'One combined PDF of every application');
    expect(screen.queryByLabelText(sensitiveLabel)).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Reason/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2), SLOW);
    expect(calls.filter((c) => c.method === 'POST')[1]!.body).toEqual({
      filters: { status: 'submitted' },
      format: 'combined',
      force: false,
    });
    const combined = await screen.findByRole('row', { name: /Combined PDF/ }, SLOW);
    expect(within(combined).queryByText('With SSN and A-Number')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of a reason', async () => {
    stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...EXPORTER } },
      'GET /staff/api/rounds': { body: ROUNDS },
      'GET /staff/api/exports': { body: { exports: [] } },
      'POST /staff/api/exports': {
        status: 400,
        body: { code: 'INVALID_REQUEST', message: STAFF_EXPORT_MESSAGES.sensitiveDataOnly },
      },
    });
    const { user } = renderApp({ path: '/staff/exports' });
    await user.selectOptions(
      await screen.findByLabelText('What to download', undefined, SLOW),
      'Data file (JSON)',
    );
    await user.click(
      screen.getByLabelText('Include Social Security and alien registration numbers'),
    );
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Audit request 2026-14');
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent(
      STAFF_EXPORT_MESSAGES.sensitiveDataOnly,
    );
  });
});
