import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { IDLE_TEXTS } from '../src/features/account/components/idle-texts';
import { renderApp } from './support/render-app';
import { MARKER_COOKIE, setLoginMarker, stubFetch } from './support/fetch-stub';
import { PROFILE } from './support/profile';

// Shortened clocks: FAST logs out 600 ms after the last activity; WARN leaves 2.5 s to answer.
const FAST = { timeoutMs: 600, warningMs: 300, tickMs: 20 };
const WARN = { timeoutMs: 3000, warningMs: 2500, tickMs: 20 };

function stubSession() {
  return stubFetch({
    'GET /api/profile': { body: PROFILE },
    'GET /api/logout': {
      body: { message: MESSAGES.loggedOut },
      effect: () => {
        document.cookie = `${MARKER_COOKIE}=; Max-Age=0; Path=/`;
      },
    },
  });
}

afterEach(() => vi.restoreAllMocks());

describe('inactivity time-out', () => {
  it('warns with the exact texts and keeps the applicant when they stay', async () => {
    setLoginMarker();
    const { calls } = stubSession();
    const { user } = renderApp({ path: '/final-steps', idleConfig: WARN });
    const dialog = await screen.findByRole('dialog', { name: IDLE_TEXTS.title }, { timeout: 5000 });
    expect(dialog).toHaveTextContent(
      'You have been inactive for a little while. Would you like to stay logged in?',
    );
    expect(screen.getByRole('button', { name: 'No - Please log me out' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes - Take me back to my application' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((call) => call.url === '/api/logout')).toBe(false);
    expect(screen.getByRole('heading', { name: 'Final Steps' })).toBeInTheDocument();
  });

  it('logs out from the dialog with the inactivity message', async () => {
    setLoginMarker();
    const { calls } = stubSession();
    const { user, router } = renderApp({ path: '/final-steps', idleConfig: WARN });
    await screen.findByRole('dialog', { name: IDLE_TEXTS.title }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: IDLE_TEXTS.leave }));
    expect(await screen.findByTestId('error-message')).toHaveTextContent(
      'You have been automatically logged out due to inactivity.',
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.filter((call) => call.url === '/api/logout')).toHaveLength(1);
  });

  it('logs out on its own when the applicant stays idle', async () => {
    setLoginMarker();
    const { calls } = stubSession();
    const { router } = renderApp({ path: '/final-steps', idleConfig: FAST });
    expect(await screen.findByTestId('error-message', {}, { timeout: 3000 })).toHaveTextContent(
      MESSAGES.idleLogout,
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.filter((call) => call.url === '/api/logout')).toHaveLength(1);
    // Logged out now: the timer is off, so no second warning appears.
    await new Promise((resolve) => setTimeout(resolve, FAST.timeoutMs));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('logs out with the inactivity message even when the server session already expired', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/logout': { status: 401, body: { message: 'Unauthorized' } },
    });
    renderApp({ path: '/final-steps', idleConfig: FAST });
    expect(await screen.findByTestId('error-message', {}, { timeout: 3000 })).toHaveTextContent(
      MESSAGES.idleLogout,
    );
  });

  it('logs out when activity comes after the full time-out passed (e.g. after sleep)', async () => {
    setLoginMarker();
    stubSession();
    // The tick never fires within the test: only the activity handler can notice.
    renderApp({
      path: '/final-steps',
      idleConfig: { timeoutMs: 900000, warningMs: 60000, tickMs: 1e9 },
    });
    await screen.findByRole('heading', { name: 'Final Steps' });
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start + 900001);
    fireEvent.keyDown(window, { key: 'a' });
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MESSAGES.idleLogout);
  });

  it('runs on auth pages too, for a logged-in user', async () => {
    setLoginMarker();
    stubSession();
    renderApp({ path: '/signup', idleConfig: WARN });
    expect(
      await screen.findByRole('dialog', { name: IDLE_TEXTS.title }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('is disabled when nobody is logged in', async () => {
    renderApp({ path: '/login', idleConfig: FAST });
    await screen.findByRole('heading', { name: 'Log In' });
    await new Promise((resolve) => setTimeout(resolve, FAST.timeoutMs + 100));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
