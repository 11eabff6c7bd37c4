import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import type { ProfileResponse } from '@admissions/api-contract';
import { APPLICATION_DEFINITION, type InputType } from '@admissions/form';
import { BANNER_TEXTS } from '../src/features/application/components/welcome-banner';
import { SUMMARY_TITLE } from '../src/features/application/components/missing-summary';
import { ANONYMOUS_UPLOAD_MESSAGE } from '../src/features/application/inputs/file-field';
import { INPUT_REGISTRY } from '../src/features/application/inputs/registry';
import {
  buildClientSnapshot,
  deriveWebStatus,
} from '../src/features/application/lib/client-snapshot';
import { isAlertActive } from '../src/features/layout/components/date-alert';
import { setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { findCompleteFormPage, renderApp } from './support/render-app';
import { typeCheck } from './support/type-check';
import { SLOW } from './support/slow';

function profile(change: Partial<ProfileResponse>): ProfileResponse {
  return { ...PROFILE, ...change };
}

const statuses = (...names: string[]) => names.map((web_status) => ({ web_status }));

const answerPuts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'PUT' && c.url === '/api/answer').map((c) => c.body);

async function findPageTitle(name: string) {
  const title = await screen.findByRole('heading', { level: 1, name }, SLOW);
  await findCompleteFormPage();
  return title;
}

describe('the input registry', () => {
  it('has a component for every input type the definition uses', () => {
    const used = new Set<InputType>();
    for (const page of APPLICATION_DEFINITION.pages) {
      for (const section of page.sections) for (const q of section.questions) used.add(q.type);
    }
    for (const type of used) expect(typeof INPUT_REGISTRY[type]).toBe('function');
  });

  // Issue 16: this used to assert that a copy without `file` lacks `file`, which held whatever
  // the type said. The compiler itself is asked now, with the SPA's own settings.
  it('refuses, at compile time, a registry missing an input type', () => {
    const registryOf = (types: string) => `
      import type { InputType } from '@admissions/form';
      import type { InputComponent, InputRegistry } from '../src/features/application/inputs/input-props';
      declare const components: { [T in ${types}]: InputComponent };
      export const registry: InputRegistry = components;
    `;
    const complete = typeCheck(registryOf('InputType'));
    const withoutFile = typeCheck(registryOf("Exclude<InputType, 'file'>"));
    expect(complete).toEqual([]);
    expect(withoutFile).toEqual([expect.stringMatching(/Property 'file' is missing/)]);
  }, 30_000);
});

describe('the client snapshot', () => {
  it('derives the web status from the count of distinct recognised entries', () => {
    expect(deriveWebStatus([])).toBeNull();
    expect(deriveWebStatus(statuses('started', 'started'))).toBe('started');
    expect(deriveWebStatus(statuses('started', 'bogus'))).toBe('started');
    expect(deriveWebStatus(statuses('started', 'validating'))).toBe('validating');
    expect(deriveWebStatus(statuses('started', 'validating', 'submitted'))).toBe('submitted');
  });

  it('counts logins, defaulting to 1, and starts without a page change', () => {
    const session = { isLoggedIn: true, username: 'A@B.EDU', isServiceUser: false };
    const snapshot = buildClientSnapshot(profile({ successful_login: ['a', 'b', 'c'] }), session);
    expect(snapshot).toMatchObject({ num_logins: 3, has_changed_page: false, is_logged_in: true });
    expect(buildClientSnapshot(profile({ successful_login: [] }), session).num_logins).toBe(1);
  });

  it('shows the date alert only between its start and end dates', () => {
    const alert = { start: '2026-01-10', end: '2026-01-20', message: 'Closed' };
    expect(isAlertActive(alert, new Date('2026-01-09T12:00:00Z'))).toBe(false);
    expect(isAlertActive(alert, new Date('2026-01-10T12:00:00Z'))).toBe(true);
    expect(isAlertActive(alert, new Date('2026-01-20T12:00:00Z'))).toBe(true);
    expect(isAlertActive(alert, new Date('2026-01-21T12:00:00Z'))).toBe(false);
    expect(isAlertActive({ ...alert, start: null }, new Date('2026-01-15T12:00:00Z'))).toBe(false);
  });
});

describe('the welcome banner', () => {
  it('welcomes an anonymous visitor with a link to log in, and no upload', async () => {
    stubFetch({});
    renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    const banner = screen.getByTestId('welcome-banner');
    expect(banner).toHaveTextContent(BANNER_TEXTS.anonymousTitle);
    expect(within(banner).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('greets a first login', async () => {
    setLoginMarker();
    stubFetch({ 'GET /api/profile': { body: PROFILE } });
    renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    expect(screen.getByTestId('welcome-banner')).toHaveTextContent(BANNER_TEXTS.firstTitle);
  });

  it('greets a returning applicant by preferred name, else by first name', async () => {
    setLoginMarker();
    const returning = profile({
      successful_login: ['2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z'],
      answer: { first_name: 'Ruth', preferred_name: 'Ruthie' },
      web_status: statuses('started'),
    });
    stubFetch({ 'GET /api/profile': { body: returning } });
    const first = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    expect(screen.getByTestId('welcome-banner')).toHaveTextContent(
      `${BANNER_TEXTS.returningTitle}, Ruthie!`,
    );
    first.unmount();

    stubFetch({
      'GET /api/profile': { body: { ...returning, answer: { first_name: 'Ruth' } } },
    });
    renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    expect(screen.getByTestId('welcome-banner')).toHaveTextContent(
      `${BANNER_TEXTS.returningTitle}, Ruth!`,
    );
  });

  it('hides once a logged-in applicant changes page', async () => {
    setLoginMarker();
    stubFetch({ 'GET /api/profile': { body: profile({ web_status: statuses('started') }) } });
    const { user } = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    await user.click(screen.getByRole('link', { name: /Your Academics/ }));
    await findPageTitle('Your Academics');
    expect(screen.queryByTestId('welcome-banner')).not.toBeInTheDocument();
  });
});

describe('conditional sections and answers', () => {
  it('clears, here and on the server, the answers of a question that hides', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': {
        body: profile({
          answer: { conviction: 'Y', conviction_desc: 'Yes', conviction_comment: 'A parking fine' },
          web_status: statuses('started'),
        }),
      },
    });
    const { user } = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    const group = screen.getAllByRole('radiogroup')[0];
    if (!group) throw new Error('no radio group');
    expect(screen.getByDisplayValue('A parking fine')).toBeInTheDocument();
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    await waitFor(() =>
      expect(answerPuts(calls)).toContainEqual({
        conviction: 'N',
        conviction_desc: 'No',
        conviction_comment: '',
      }),
    );
    expect(screen.queryByDisplayValue('A parking fine')).not.toBeInTheDocument();
    // A question that appears is announced.
    const suspended = screen.getAllByRole('radiogroup')[1];
    if (!suspended) throw new Error('no second radio group');
    await user.click(within(suspended).getByRole('radio', { name: 'Yes' }));
    await waitFor(() =>
      expect(
        screen.getAllByRole('status').some((el) => /New questions appeared: /.test(el.textContent)),
      ).toBe(true),
    );
  });

  // The inputs are uncontrolled (@mantine/form): an answer cleared by another one must still
  // reach the input that shows it.
  it('empties the state, on screen and on the server, when the country changes', async () => {
    setLoginMarker();
    const { calls } = stubFetch({
      'GET /api/profile': {
        body: profile({
          answer: { country: 'USA', country_desc: 'United States', state: 'IL' },
          web_status: statuses('started'),
        }),
      },
    });
    const { user } = renderApp({ path: '/about' });
    await findPageTitle('About You');
    const state = () => document.getElementById('state') as HTMLSelectElement;
    expect(state()).toHaveValue('IL');
    await user.selectOptions(document.getElementById('country') as HTMLSelectElement, 'CAN');
    await waitFor(() => expect(state()).toHaveValue(''));
    expect(within(state()).getByRole('option', { name: 'Ontario' })).toBeInTheDocument();
    await waitFor(() =>
      expect(answerPuts(calls)).toContainEqual(
        expect.objectContaining({ country: 'CAN', state: '' }),
      ),
    );
  });

  it('takes a field’s error away while validating as soon as it is answered', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': { body: profile({ web_status: statuses('started', 'validating') }) },
    });
    const { user } = renderApp({ path: '/about' });
    await screen.findByTestId('missing-summary', undefined, SLOW);
    await findCompleteFormPage();
    const firstName = document.getElementById('first_name') as HTMLInputElement;
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    await user.type(firstName, 'Ruth');
    await waitFor(() => expect(firstName).not.toHaveAttribute('aria-invalid', 'true'));
    expect(firstName).toHaveValue('Ruth');
    expect(screen.getByTestId('missing-summary')).not.toHaveTextContent(/first.*name/i);
  });

  // Issue 17: the certification box (required to submit) was the one required question
  // without the asterisk every other one shows.
  it('marks a required checkbox like every other required question', async () => {
    stubFetch({});
    renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    const certify = screen.getByRole('checkbox', { name: /I certify/ });
    expect(certify).toHaveAttribute('aria-required', 'true');
    expect(certify.closest('.mantine-Checkbox-root')?.textContent).toMatch(/own\.\s*\*$/);
  });

  it('tells an anonymous visitor that uploads need an account', async () => {
    stubFetch({});
    renderApp({ path: '/education' });
    await findPageTitle('Your Academics');
    expect(screen.getAllByText(ANONYMOUS_UPLOAD_MESSAGE).length).toBeGreaterThan(0);
    // Anonymous visitors see the default tab only: no tab list, no add-another button.
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add Another/ })).not.toBeInTheDocument();
  });
});

describe('the save state', () => {
  it('shows Saving…, then All changes saved, and Not saved — Retry on failure', async () => {
    setLoginMarker();
    let fail = true;
    let release: () => void = () => {};
    const { calls } = stubFetch({
      'GET /api/profile': { body: profile({ web_status: statuses('started') }) },
      'PUT /api/answer': () =>
        new Promise((resolve) => {
          release = () =>
            resolve(
              fail
                ? { status: 500, body: { message: 'boom' } }
                : { body: { message: MESSAGES.answersSaved } },
            );
        }),
    });
    const { user } = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    await user.click(screen.getByRole('checkbox'));
    const status = await screen.findByTestId('save-status');
    await waitFor(() => expect(status).toHaveTextContent('Saving…'));
    act(() => release());
    await waitFor(() => expect(status).toHaveTextContent('Not saved —'));
    fail = false;
    await user.click(within(status).getByRole('button', { name: 'Retry' }));
    act(() => release());
    await waitFor(() => expect(status).toHaveTextContent('All changes saved'));
    expect(answerPuts(calls)).toEqual([{ legal_agree: 'true' }, { legal_agree: 'true' }]);
  });
});

describe('routing rules and web status', () => {
  it('starts a fresh application: posts started, then reports the page', async () => {
    setLoginMarker();
    const { calls } = stubFetch({ 'GET /api/profile': { body: PROFILE } });
    renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/web-status')?.body).toEqual({
        web_status: 'started',
      }),
    );
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/last-page')?.body).toEqual({
        last_page: '/final-steps',
      }),
    );
  });

  it('resumes the saved last page', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': {
        body: profile({ last_page: '/final-steps', web_status: statuses('started') }),
      },
    });
    const { router } = renderApp({ path: '/about' });
    await findPageTitle('Final Steps');
    expect(router.state.location.pathname).toBe('/final-steps');
  });

  it('sends a submitted application to /completion', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': {
        body: profile({ web_status: statuses('started', 'validating', 'submitted') }),
      },
    });
    const { router } = renderApp({ path: '/education' });
    expect(await screen.findByText(MESSAGES.submitted)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/completion');
  });

  it('sends a visitor without a submitted application away from /completion', async () => {
    stubFetch({});
    const anonymous = renderApp({ path: '/completion' });
    await findPageTitle('About You');
    expect(anonymous.router.state.location.pathname).toBe('/about');
  });

  it('sends an anonymous visitor with answers to /signup from the step links', async () => {
    stubFetch({});
    const { user, router } = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    await user.click(screen.getAllByRole('radio', { name: 'No' })[0] as HTMLElement);
    await user.click(screen.getByRole('link', { name: /About You/ }));
    await screen.findByRole('heading', { level: 1, name: 'Sign Up' }, SLOW);
    expect(router.state.location.state).toMatchObject({
      answers: { conviction: 'N', conviction_desc: 'No' },
    });
  });

  it('loads a prefill link’s answers for an anonymous visitor', async () => {
    const { calls } = stubFetch({
      'GET /public/tmp': { body: { answer: { conviction_comment: 'x', conviction: 'Y' } } },
    });
    renderApp({ path: '/final-steps?token=abc' });
    await findPageTitle('Final Steps');
    expect(calls[0]?.url).toBe('/public/tmp?token=abc');
    expect(screen.getByDisplayValue('x')).toBeInTheDocument();
  });

  it('says so when a prefill link has expired, and leaves the form empty', async () => {
    stubFetch({
      'GET /public/tmp': { status: 404, body: { message: MESSAGES.temporaryAnswersGone } },
    });
    renderApp({ path: '/about?token=old' });
    await findPageTitle('About You');
    expect(await screen.findByText(MESSAGES.temporaryAnswersGone)).toBeInTheDocument();
    expect(document.getElementById('first_name')).toHaveValue('');
  });

  it('validates on submit: status validating, errors posted, summary focused with links', async () => {
    setLoginMarker();
    const { calls, fetchMock } = stubFetch({
      'GET /api/profile': { body: profile({ web_status: statuses('started') }) },
    });
    const { user } = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const summary = await screen.findByTestId('missing-summary');
    expect(summary).toHaveTextContent(SUMMARY_TITLE);
    await waitFor(() => expect(summary).toHaveFocus());
    expect(within(summary).getByRole('link', { name: 'First/Given Name' })).toHaveAttribute(
      'href',
      '/about#first_name',
    );
    expect(calls.filter((c) => c.url === '/api/web-status').map((c) => c.body)).toContainEqual({
      web_status: 'validating',
    });
    const posted = calls.find((c) => c.url === '/api/validations')?.body as Record<string, unknown>;
    expect(Object.keys(posted)).toContain('first_name');
    expect(calls.some((c) => c.url === '/api/submit')).toBe(false);
    // Fields are red with their messages tied to them.
    const checkbox = screen.getByRole('checkbox');
    expect(checkbox).toHaveAttribute('aria-invalid', 'true');
    expect(checkbox).toHaveAccessibleDescription(/I certify/);
    fetchMock.mockClear();
  });

  it('submits a complete application and lands on /completion', async () => {
    setLoginMarker();
    const { COMPLETE_ANSWERS } =
      await import('../../../packages/form/test/fixtures/complete-answers');
    const { calls } = stubFetch({
      'GET /api/profile': {
        body: profile({
          answer: { ...COMPLETE_ANSWERS, honors_statement_doc: '' },
          web_status: statuses('started', 'validating'),
        }),
      },
      'POST /api/submit': { body: { message: MESSAGES.submitted } },
    });
    const { user, router } = renderApp({ path: '/final-steps' });
    await findPageTitle('Final Steps');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(MESSAGES.submitted, undefined, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/completion');
    expect(calls.some((c) => c.url === '/api/submit')).toBe(true);
  });
});
