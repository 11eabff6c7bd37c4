// The staff print view (docs/product.md, docs/screens-and-routes.md, docs/roles.md): ?service_token= → a read-only print layout.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServicePrintResponse } from '@admissions/api-contract';
import { buildAnswerView } from '@admissions/answer-view';
import { APPLICATION_DEFINITION, DEFAULT_PARTNER } from '@admissions/form';
import {
  PRINT_ERROR_TITLE,
  PRINT_LOADING_LABEL,
  PRINT_REOPEN_MESSAGE,
  PRINT_REOPEN_TITLE,
} from '../src/features/print/components/service-print';
import { forgetServiceToken } from '../src/features/print/lib/service-token';
import { getSession, setServiceUser } from '../src/shared/lib/session';
import { renderApp } from './support/render-app';
import { setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { SLOW } from './support/slow';

const TOKEN = 'staff.token-123';

const ANSWERS = {
  first_name: 'Ana',
  last_name: 'Martínez',
  citizenship_type: '1',
  citizenship_type_desc: 'U.S. Citizen',
  conviction: 'N',
  conviction_desc: 'No',
};

// What the server sends: the documented fields and the finished view model (built, hidden and
// masked there), which is what the view lays out.
const PRINT: ServicePrintResponse = {
  answer: ANSWERS,
  add_another: {},
  document_answer: {},
  tabs: {},
  view: buildAnswerView(APPLICATION_DEFINITION, ANSWERS, {
    partner: DEFAULT_PARTNER,
    audience: 'service',
  }),
  applicant: {
    name: 'Ana Martínez',
    application_id: 'APP-0001',
    email: 'ana@example.edu',
    submitted_at: '2026-01-15T10:00:00.000Z',
  },
};

const printCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url.startsWith('/service/tmp-pdf'));

afterEach(() => {
  forgetServiceToken();
  setServiceUser(false);
});

describe('the service print view', () => {
  it('shows the answers as read-only text and takes the token out of the address bar', async () => {
    const { calls } = stubFetch({ 'GET /service/tmp-pdf': { body: PRINT } });
    const { router } = renderApp({ path: `/print?service_token=${TOKEN}` });
    expect(await screen.findByText('Ana', undefined, SLOW)).toBeInTheDocument();
    expect(printCalls(calls).map((call) => call.url)).toEqual([
      `/service/tmp-pdf?service_token=${TOKEN}`,
    ]);
    expect(router.state.location.pathname).toBe('/print');
    expect(router.state.location.search).toBe('');
    expect(getSession().isServiceUser).toBe(true);
    expect(screen.getByText('U.S. Citizen')).toBeInTheDocument();
    // No header, footer, navigation, buttons, inputs or account popover (docs/product.md). The view's
    // own <header> sits inside <main>, where it is no banner (jsdom's roles ignore that rule).
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(document.querySelectorAll('header:not(main header), footer, nav, hr')).toHaveLength(0);
    for (const role of ['contentinfo', 'navigation', 'button', 'textbox', 'radio', 'separator']) {
      expect(screen.queryAllByRole(role), role).toHaveLength(0);
    }
    expect(screen.queryByRole('link', { name: /Step \d/ })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(document.title).toBe('Application | Ana Martínez | Undergraduate Application'),
    );
    // Nothing of the applicant's account is asked for.
    expect(calls.some((call) => call.url.startsWith('/api/'))).toBe(false);
  });

  it('lays out the view model as the server sent it, without rebuilding it', async () => {
    const page = PRINT.view.pages[0]!;
    const section = page.sections[0]!;
    const sent: ServicePrintResponse = {
      ...PRINT,
      view: {
        ...PRINT.view,
        pages: [
          {
            ...page,
            sections: [
              {
                ...section,
                rows: [
                  ...section.rows,
                  // A row the browser could not have made from answers: a key the definition
                  // does not know.
                  { key: 'server_note', label: 'Server-made row', value: 'As sent', kind: 'short' },
                ],
              },
            ],
          },
        ],
      },
    };
    stubFetch({ 'GET /service/tmp-pdf': { body: sent } });
    renderApp({ path: `/print?service_token=${TOKEN}` });
    expect(await screen.findByText('Server-made row', undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByText('As sent')).toBeInTheDocument();
    // Nothing the server left out comes back: one page sent, one page shown.
    expect(document.querySelectorAll('[data-page-id]')).toHaveLength(1);
  });

  it('sends any path carrying a service token to the print view, even when logged in', async () => {
    setLoginMarker();
    const { calls } = stubFetch({ 'GET /service/tmp-pdf': { body: PRINT } });
    const { router } = renderApp({ path: `/education?service_token=${TOKEN}` });
    expect(await screen.findByText('Ana', undefined, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/print');
    expect(router.state.location.search).toBe('');
    expect(calls.some((call) => call.url === '/api/profile')).toBe(false);
  });

  it('shows the loader while the answers load', async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    const { calls } = stubFetch({
      'GET /service/tmp-pdf': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderApp({ path: `/print?service_token=${TOKEN}` });
    await waitFor(() => expect(printCalls(calls)).toHaveLength(1), SLOW);
    expect(screen.getByRole('progressbar', { name: PRINT_LOADING_LABEL })).toBeInTheDocument();
    answer({ body: PRINT });
    expect(await screen.findByText('Ana', undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it.each([
    [401, 'This staff link has expired. Please ask for a new link.'],
    [403, 'Service access is read-only.'],
  ])(
    'shows the server’s message for a refused token (%i), not the login page',
    async (status, message) => {
      stubFetch({ 'GET /service/tmp-pdf': { status, body: { message } } });
      const { router } = renderApp({ path: `/print?service_token=${TOKEN}` });
      const alert = await screen.findByTestId('print-message', undefined, SLOW);
      expect(within(alert).getByRole('heading', { name: PRINT_ERROR_TITLE })).toBeInTheDocument();
      expect(alert).toHaveTextContent(message);
      expect(router.state.location.pathname).toBe('/print');
      expect(router.state.location.search).toBe('');
      expect(within(alert).queryByRole('button')).not.toBeInTheDocument();
    },
  );

  it('offers to try again when the server cannot be reached', async () => {
    let fail = true;
    stubFetch({
      'GET /service/tmp-pdf': () => {
        if (fail) throw new TypeError('Failed to fetch');
        return { body: PRINT };
      },
    });
    const { user } = renderApp({ path: `/print?service_token=${TOKEN}` });
    const alert = await screen.findByTestId('print-message', undefined, SLOW);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Ana', undefined, SLOW)).toBeInTheDocument();
  });

  it('asks to open the link again after a reload (the token is gone)', async () => {
    const { calls } = stubFetch({});
    renderApp({ path: '/print' });
    const alert = await screen.findByTestId('print-message', undefined, SLOW);
    expect(within(alert).getByRole('heading', { name: PRINT_REOPEN_TITLE })).toBeInTheDocument();
    expect(alert).toHaveTextContent(PRINT_REOPEN_MESSAGE);
    expect(printCalls(calls)).toHaveLength(0);
  });
});
