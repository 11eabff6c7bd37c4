// The checklist on the staff pages (issue #30): the application page's panel (read-only for a
// reader or an exporter; a processor requests and waives items) and the list's Checklist column
// and filter.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  StaffApplicationResponse,
  StaffListResponse,
  StaffMeResponse,
  StaffRoundsResponse,
} from '@admissions/api-contract';
import { buildAnswerView } from '@admissions/answer-view';
import { APPLICATION_DEFINITION, DEFAULT_PARTNER } from '@admissions/form';
import { renderApp } from './support/render-app';
import { stubFetch, type RecordedCall } from './support/fetch-stub';
import { SLOW } from './support/slow';
import { checklist, item } from './support/checklist';

const ID = '6f1c1d1e-0000-4000-8000-000000000001';
const API = `/staff/api/applications/${ID}`;

const PROCESSOR: StaffMeResponse = { email: 'processor@staff.example.edu', role: 'processor' };
const READER: StaffMeResponse = { email: 'reader@staff.example.edu', role: 'reader' };
const EXPORTER: StaffMeResponse = { email: 'officer@staff.example.edu', role: 'exporter' };

const ANSWERS = { first_name: 'Ada', last_name: 'Lovelace' };
const APPLICATION: StaffApplicationResponse = {
  print: {
    answer: ANSWERS,
    add_another: {},
    document_answer: {},
    tabs: {},
    view: buildAnswerView(APPLICATION_DEFINITION, ANSWERS, {
      partner: DEFAULT_PARTNER,
      audience: 'service',
    }),
    applicant: {
      name: 'Ada Lovelace',
      application_id: ID,
      email: 'ada@example.org',
      submitted_at: '2026-11-20T16:00:00.000Z',
    },
  },
  documents: [],
  pdf_url: `${API}/pdf`,
};

const posts = (calls: RecordedCall[], path: string) =>
  calls.filter((call) => call.method === 'POST' && call.url === path);

function renderApplication(me: StaffMeResponse, handlers: Parameters<typeof stubFetch>[0] = {}) {
  const stub = stubFetch({
    'GET /staff/auth/session': { body: { signed_in: true, ...me } },
    [`GET ${API}`]: { body: APPLICATION },
    [`GET ${API}/checklist`]: { body: checklist() },
    ...handlers,
  });
  return { ...stub, ...renderApp({ path: `/staff/applications/${ID}` }) };
}

async function findPanel(): Promise<HTMLElement> {
  const panel = await screen.findByRole('region', { name: 'Checklist' }, SLOW);
  await within(panel).findByTestId('checklist-items', undefined, SLOW);
  return panel;
}

describe('the staff checklist panel', () => {
  it.each([
    ['a reader', READER],
    ['an exporter', EXPORTER],
  ])('shows %s the checklist and nothing to change it with', async (_, me) => {
    renderApplication(me);
    const panel = await findPanel();
    const teacher = panel.querySelector<HTMLElement>('[data-item="teacher-1"]')!;
    expect(within(teacher).getByText('Awaiting')).toBeInTheDocument();
    expect(within(teacher).getByTestId('recommender')).toHaveTextContent(
      'Grace Hopper (Teacher, grace@school.example.org)',
    );
    expect(
      within(teacher).getByText('The applicant waived the right to read this letter (FERPA).'),
    ).toBeInTheDocument();
    expect(
      within(panel).getByText('The applicant has not invited anyone for this letter yet.'),
    ).toBeInTheDocument();
    expect(within(panel).getByTestId('checklist-progress')).toHaveTextContent(
      '1 of 3 required items received or waived.',
    );
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(within(panel).queryByRole('heading', { name: 'Request an item' })).toBeNull();
  });

  it('lets a processor waive an awaited item, once confirmed', async () => {
    const waived = checklist({
      items: checklist().items.map((entry) =>
        entry.id === 'counselor'
          ? { ...entry, status: 'waived' as const, waived_at: '2026-11-27T16:00:00.000Z' }
          : entry,
      ),
    });
    // Not yet submitted: the application itself is awaited, and still not the office's to waive.
    const unsubmitted = checklist({
      submitted: false,
      items: checklist().items.map(({ received_at: _, ...entry }) =>
        entry.id === 'application' ? { ...entry, status: 'awaiting' as const } : entry,
      ),
    });
    const { calls, user } = renderApplication(PROCESSOR, {
      [`GET ${API}/checklist`]: { body: unsubmitted },
      [`POST ${API}/waivers`]: { body: waived },
    });
    const panel = await findPanel();
    // Only awaited items can be waived, and never the application.
    expect(
      within(panel)
        .getAllByRole('button', { name: /^Waive / })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Waive Counselor recommendation', 'Waive Teacher recommendation']);
    await user.click(within(panel).getByRole('button', { name: 'Waive Counselor recommendation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Waive item' }, SLOW);
    expect(within(dialog).getByText(/Waive “Counselor recommendation”\?/)).toBeInTheDocument();
    expect(posts(calls, `${API}/waivers`)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Waive' }));
    expect(
      await within(panel).findByText('Counselor recommendation was waived.'),
    ).toBeInTheDocument();
    expect(posts(calls, `${API}/waivers`)[0]?.body).toEqual({ item: 'counselor' });
    const counselor = panel.querySelector<HTMLElement>('[data-item="counselor"]')!;
    expect(counselor).toHaveAttribute('data-status', 'waived');
    expect(within(counselor).getByText('November 27, 2026 at 10:00 AM CST')).toBeInTheDocument();
  });

  it('lets a processor request an item with a message, counting its characters', async () => {
    const requested = checklist({
      items: [
        ...checklist().items,
        item({
          id: 'request-1',
          title: 'Official transcript',
          message: 'Your final transcript, please.',
          uploadable: true,
        }),
      ],
    });
    const { calls, user } = renderApplication(PROCESSOR, {
      [`POST ${API}/requests`]: { body: requested },
    });
    const panel = await findPanel();
    const form = within(panel).getByRole('form', { name: 'Request an item' });
    await user.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(within(form).getByText('Please name the item you are asking for.')).toBeInTheDocument();
    expect(posts(calls, `${API}/requests`)).toEqual([]);

    await user.type(within(form).getByLabelText(/^Item/), 'Official transcript');
    const message = within(form).getByLabelText(/^Message to the applicant/);
    await user.type(message, 'Your final transcript, please.');
    expect(within(form).getByTestId('character-count')).toHaveTextContent('30 of 1,000 characters');
    expect(message).toHaveAttribute('maxlength', '1000');
    await user.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(
      await within(panel).findByText('The applicant was asked for Official transcript by e-mail.'),
    ).toBeInTheDocument();
    expect(posts(calls, `${API}/requests`)[0]?.body).toEqual({
      title: 'Official transcript',
      message: 'Your final transcript, please.',
    });
    const transcript = panel.querySelector<HTMLElement>('[data-item="request-1"]')!;
    expect(within(transcript).getByText('Your final transcript, please.')).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Item/)).toHaveValue('');
  });

  it('shows the server’s refusal in the panel', async () => {
    renderApplication(READER, {
      [`GET ${API}/checklist`]: {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'There is no such application.' },
      },
    });
    const panel = await screen.findByRole('region', { name: 'Checklist' }, SLOW);
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'There is no such application.',
    );
    // The application itself is still shown.
    expect(screen.getByRole('heading', { name: 'Application of Ada Lovelace' })).toBeVisible();
  });
});

const ROUNDS: StaffRoundsResponse = { time_zone: 'America/Chicago', rounds: [] };

const LIST: StaffListResponse = {
  rows: [
    {
      id: ID,
      round: 'RD',
      status: 'submitted',
      submitted_at: '2026-11-20T10:00:00.000Z',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      entry_term: 'Fall 2027',
      major: 'Mathematics',
      external_id: null,
      checklist: { done: 2, required: 3 },
    },
    {
      id: '6f1c1d1e-0000-4000-8000-000000000002',
      round: 'RD',
      status: 'submitted',
      submitted_at: '2026-11-21T10:00:00.000Z',
      name: 'Alan Turing',
      email: 'alan@example.org',
      entry_term: 'Fall 2027',
      major: 'Physics',
      external_id: null,
      checklist: { done: 3, required: 3 },
    },
  ],
  total: 2,
  page: 1,
  page_size: 25,
  counts: { started: 0, validating: 0, submitted: 2 },
};

describe('the staff list’s checklist', () => {
  it('shows each row’s progress and filters by it in the address and the request', async () => {
    const { calls } = stubFetch({
      'GET /staff/auth/session': { body: { signed_in: true, ...READER } },
      'GET /staff/api/applications': { body: LIST },
      'GET /staff/api/rounds': { body: ROUNDS },
    });
    const { router, user } = renderApp({ path: '/staff' });
    const ada = await screen.findByRole('link', { name: 'Ada Lovelace' }, SLOW);
    expect(screen.getByRole('columnheader', { name: 'Checklist' })).toBeInTheDocument();
    expect(within(ada.closest('tr') as HTMLElement).getByText('2 of 3')).toBeInTheDocument();
    const alan = screen.getByRole('link', { name: 'Alan Turing' });
    expect(within(alan.closest('tr') as HTMLElement).getByText('Complete')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Checklist'), 'Awaiting items');
    await waitFor(() => expect(router.state.location.search).toBe('?checklist=awaiting'), SLOW);
    await waitFor(() =>
      expect(calls.filter((c) => c.url.startsWith('/staff/api/applications')).at(-1)?.url).toBe(
        '/staff/api/applications?checklist=awaiting&sort=submitted_desc&page=1&page_size=25',
      ),
    );
    await user.selectOptions(screen.getByLabelText('Checklist'), 'Complete');
    await waitFor(() => expect(router.state.location.search).toBe('?checklist=complete'), SLOW);
  });
});
