// Issue #29, the round picker: on the completion page ("Apply to another round") and above a
// closed round's read-only application. Choosing calls PUT /api/application with the round (and
// copy_from_last when asked), refetches what the application's calls answer, and lands on it.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApplicationsResponse, ProfileResponse } from '@admissions/api-contract';
import { PICKER_TEXTS } from '../src/features/rounds';
import { setLoginMarker, stubFetch, type RecordedCall } from './support/fetch-stub';
import { PROFILE } from './support/profile';
import { findCompleteFormPage, renderApp } from './support/render-app';
import {
  applicationsAt,
  HOUR,
  MINUTE,
  REGULAR_DECISION,
  started,
  submitted,
} from './support/rounds';
import { SLOW } from './support/slow';

const PAGE_MS = 45_000;
const TEST_MS = 120_000;
const NO_IDLE = { timeoutMs: 48 * HOUR, warningMs: MINUTE, tickMs: 1000 };

const SUBMITTED = ['started', 'validating', 'submitted'].map((web_status) => ({ web_status }));
const NEW_ANSWERS = { first_name: 'Ruth', last_name: 'Okafor' };

const callsTo = (calls: RecordedCall[], method: string, url: string) =>
  calls.filter((c) => c.method === method && c.url === url);

/**
 * A server holding the applicant's Early Action application (`ea`: submitted or still open)
 * `msBeforeClose` before it closes; PUT /api/application switches to Regular Decision, whose
 * profile has other answers.
 */
function stubServer({
  msBeforeClose,
  ea,
  holdsRegular = false,
  choose,
}: {
  msBeforeClose: number;
  ea: 'submitted' | 'started';
  holdsRegular?: boolean;
  choose?: { status: number; body: unknown };
}) {
  setLoginMarker();
  let current = 'EA';
  const eaApplication = ea === 'submitted' ? submitted('EA') : started('EA');
  const listing = (): ApplicationsResponse =>
    applicationsAt(msBeforeClose, {
      current,
      applications:
        current === 'RD' || holdsRegular ? [started('RD'), eaApplication] : [eaApplication],
    });
  const profiles: Record<string, ProfileResponse> = {
    EA: { ...PROFILE, web_status: ea === 'submitted' ? SUBMITTED : [{ web_status: 'started' }] },
    RD: { ...PROFILE, answer: NEW_ANSWERS, web_status: [{ web_status: 'started' }] },
  };
  return stubFetch({
    'GET /api/profile': () => ({ body: profiles[current] }),
    'GET /api/applications': () => ({ body: listing() }),
    'PUT /api/application': () => {
      if (choose) return choose;
      current = 'RD';
      return { body: listing() };
    },
  });
}

afterEach(() => vi.restoreAllMocks());

describe('the round picker on the completion page', () => {
  it(
    'starts another round from the last application and opens it',
    async () => {
      const { calls } = stubServer({ msBeforeClose: 2 * HOUR, ea: 'submitted' });
      const { user, router } = renderApp({ path: '/completion', idleConfig: NO_IDLE });
      const picker = await screen.findByTestId('round-picker', undefined, SLOW);
      expect(within(picker).getByRole('heading', { name: PICKER_TEXTS.title })).toBeInTheDocument();
      // Open rounds without an application: Regular Decision, not the Spring round (opens later).
      expect(picker).toHaveTextContent(
        'Regular Decision (Fall 2027), deadline March 1, 2027 at 11:59 PM CST',
      );
      expect(within(picker).queryByText(/Spring Transfer/)).not.toBeInTheDocument();
      expect(picker).toHaveTextContent(
        'Early Action (Fall 2027): Submitted on January 10, 2027 at 4:10 PM CST',
      );
      const copy = within(picker).getByRole('checkbox', { name: PICKER_TEXTS.copy });
      expect(copy).toHaveAccessibleDescription(PICKER_TEXTS.copyNote);
      expect(copy).not.toBeChecked();
      const profileCalls = callsTo(calls, 'GET', '/api/profile').length;

      await user.click(copy);
      await user.click(
        within(picker).getByRole('button', { name: 'Start Regular Decision application' }),
      );

      await waitFor(() => expect(router.state.location.pathname).toBe('/about'), SLOW);
      expect(callsTo(calls, 'PUT', '/api/application').map((c) => c.body)).toEqual([
        { round: 'RD', copy_from_last: true },
      ]);
      // The new application's own answers: the profile (and the rest) were fetched again.
      await findCompleteFormPage(PAGE_MS);
      expect(callsTo(calls, 'GET', '/api/profile').length).toBeGreaterThan(profileCalls);
      expect(callsTo(calls, 'GET', '/api/tabs').length).toBeGreaterThan(0);
      expect(document.getElementById('first_name')).toHaveValue('Ruth');
      expect(document.getElementById('first_name')).toBeEnabled();
    },
    TEST_MS,
  );

  it(
    'starts a round without copying when the box is not ticked',
    async () => {
      const { calls } = stubServer({ msBeforeClose: 2 * HOUR, ea: 'submitted' });
      const { user, router } = renderApp({ path: '/completion', idleConfig: NO_IDLE });
      const picker = await screen.findByTestId('round-picker', undefined, SLOW);
      await user.click(
        within(picker).getByRole('button', { name: 'Start Regular Decision application' }),
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/about'), SLOW);
      expect(callsTo(calls, 'PUT', '/api/application').map((c) => c.body)).toEqual([
        { round: 'RD' },
      ]);
    },
    TEST_MS,
  );

  it(
    'opens an application the applicant already holds',
    async () => {
      const { calls } = stubServer({
        msBeforeClose: 2 * HOUR,
        ea: 'submitted',
        holdsRegular: true,
      });
      const { user, router } = renderApp({ path: '/completion', idleConfig: NO_IDLE });
      const picker = await screen.findByTestId('round-picker', undefined, SLOW);
      // Nothing left to start: both open rounds are held.
      expect(within(picker).queryByRole('button', { name: /^Start / })).not.toBeInTheDocument();
      expect(picker).toHaveTextContent('Regular Decision (Fall 2027): In progress');
      await user.click(
        within(picker).getByRole('button', { name: 'Open Regular Decision application' }),
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/about'), SLOW);
      expect(callsTo(calls, 'PUT', '/api/application').map((c) => c.body)).toEqual([
        { round: 'RD' },
      ]);
      await findCompleteFormPage(PAGE_MS);
      expect(document.getElementById('first_name')).toHaveValue('Ruth');
    },
    TEST_MS,
  );

  it(
    'shows the server’s refusal as it is',
    async () => {
      const message =
        'The Regular Decision round opens on October 1, 2026 at 12:00 AM CDT. You can start an application in it then.';
      stubServer({
        msBeforeClose: 2 * HOUR,
        ea: 'submitted',
        choose: { status: 409, body: { code: 'ROUND_NOT_OPEN', message } },
      });
      const { user, router } = renderApp({ path: '/completion', idleConfig: NO_IDLE });
      const picker = await screen.findByTestId('round-picker', undefined, SLOW);
      await user.click(
        within(picker).getByRole('button', { name: 'Start Regular Decision application' }),
      );
      expect(await within(picker).findByRole('alert', undefined, SLOW)).toHaveTextContent(message);
      expect(router.state.location.pathname).toBe('/completion');
    },
    TEST_MS,
  );
});

describe('the round picker at the start of a new cycle', () => {
  it(
    'is offered above a closed round’s application and starts the open round',
    async () => {
      const { calls } = stubServer({ msBeforeClose: -MINUTE, ea: 'started' });
      const { user } = renderApp({ path: '/about', idleConfig: NO_IDLE });
      await screen.findByTestId('round-closed', undefined, SLOW);
      const picker = await screen.findByTestId('round-picker', undefined, SLOW);
      expect(picker).toHaveTextContent('Early Action (Fall 2027): In progress');
      await findCompleteFormPage(PAGE_MS);
      expect(document.getElementById('first_name')).toBeDisabled();

      await user.click(within(picker).getByRole('checkbox', { name: PICKER_TEXTS.copy }));
      await user.click(
        within(picker).getByRole('button', { name: 'Start Regular Decision application' }),
      );
      // The open round's application: it can change, and it has its own answers.
      await waitFor(
        () => expect(screen.queryByTestId('round-closed')).not.toBeInTheDocument(),
        SLOW,
      );
      await findCompleteFormPage(PAGE_MS);
      await waitFor(() => expect(document.getElementById('first_name')).toHaveValue('Ruth'), SLOW);
      expect(document.getElementById('first_name')).toBeEnabled();
      expect(callsTo(calls, 'PUT', '/api/application').map((c) => c.body)).toEqual([
        { round: REGULAR_DECISION.code, copy_from_last: true },
      ]);
    },
    TEST_MS,
  );

  it(
    'is not offered while the application can still change',
    async () => {
      stubServer({ msBeforeClose: 2 * HOUR, ea: 'started' });
      renderApp({ path: '/about', idleConfig: NO_IDLE });
      await findCompleteFormPage(PAGE_MS);
      expect(screen.queryByTestId('round-picker')).not.toBeInTheDocument();
    },
    TEST_MS,
  );
});
