import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { setServiceUser } from '../src/shared/lib/session';
import { ERROR_SCREEN_TEXT, ERROR_SCREEN_TITLE } from '../src/shared/ui/error-screen';
import { renderApp } from './support/render-app';
import { MARKER_COOKIE, setLoginMarker, stubFetch } from './support/fetch-stub';
import { PROFILE } from './support/profile';

afterEach(() => {
  setServiceUser(false);
  vi.restoreAllMocks();
});

// React and the router report caught render errors on the console; expected here.
const silenceErrorLog = () => vi.spyOn(console, 'error').mockImplementation(() => {});

describe('the application root', () => {
  it('shows the full-screen loader while the profile loads, then the page', async () => {
    setLoginMarker();
    let answer: (value: { body: unknown }) => void = () => {};
    const { calls } = stubFetch({
      'GET /api/profile': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderApp({ path: '/about' });
    await waitFor(() => expect(calls.some((call) => call.url === '/api/profile')).toBe(true));
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    answer({ body: PROFILE });
    expect(await screen.findByRole('heading', { name: 'About You' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('sends a rejected session to /login with the session message and an empty cache', async () => {
    setLoginMarker();
    stubFetch({ 'GET /api/profile': { status: 401, body: { message: 'Unauthorized' } } });
    const { router, queryClient } = renderApp({ path: '/about' });
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MESSAGES.sessionInvalid);
    expect(router.state.location.pathname).toBe('/login');
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(document.cookie).not.toContain(MARKER_COOKIE);
  });

  it('shows the generic error screen when the profile fails', async () => {
    silenceErrorLog();
    setLoginMarker();
    stubFetch({ 'GET /api/profile': { status: 500, body: { message: 'boom' } } });
    renderApp({ path: '/about' });
    expect(await screen.findByText(ERROR_SCREEN_TITLE)).toBeInTheDocument();
    expect(screen.getByText(ERROR_SCREEN_TEXT)).toBeInTheDocument();
  });

  it('redirects unknown paths to /about keeping the query string', async () => {
    setLoginMarker();
    stubFetch({ 'GET /api/profile': { body: PROFILE } });
    const { router } = renderApp({ path: '/no/such/page?token=abc' });
    expect(await screen.findByRole('heading', { name: 'About You' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/about');
    expect(router.state.location.search).toBe('?token=abc');
  });

  it('lets a logged-out visitor fill the application without calling the applicant API', async () => {
    const { calls } = stubFetch({});
    const { router } = renderApp({ path: '/education' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Academics' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/education');
    expect(calls).toHaveLength(0);
  });
});

describe('the account popover', () => {
  it('offers Sign In and Create Account when logged out', async () => {
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: /Account/ }));
    const popover = await screen.findByTestId('account-popover');
    expect(popover).toHaveTextContent('Sign In');
    expect(popover).toHaveTextContent('Create Account');
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/signup');
  });

  it('shows the lowercased username and logs out with the logout message', async () => {
    setLoginMarker('Student@Example.EDU');
    const { calls } = stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/logout': {
        body: { message: MESSAGES.loggedOut },
        effect: () => {
          document.cookie = `${MARKER_COOKIE}=; Max-Age=0; Path=/`;
        },
      },
    });
    const { user, router, queryClient } = renderApp({ path: '/final-steps' });
    await user.click(await screen.findByRole('button', { name: /Account/ }));
    expect(await screen.findByTestId('account-username')).toHaveTextContent('student@example.edu');
    await user.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(await screen.findByTestId('success-message')).toHaveTextContent(MESSAGES.loggedOut);
    expect(router.state.location.pathname).toBe('/login');
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(calls.map((call) => `${call.method} ${call.url}`)).toContain('GET /api/logout');
    await user.click(screen.getByRole('button', { name: /Account/ }));
    expect(await screen.findByTestId('account-popover')).toHaveTextContent('Sign In');
  });

  it('uses the session message when logout finds no session', async () => {
    setLoginMarker();
    stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/logout': { status: 401, body: { message: 'Unauthorized' } },
    });
    const { user } = renderApp({ path: '/final-steps' });
    await user.click(await screen.findByRole('button', { name: /Account/ }));
    await user.click(await screen.findByRole('button', { name: 'Log Out' }));
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MESSAGES.sessionInvalid);
  });

  it('sends any other logout failure to the error boundary', async () => {
    silenceErrorLog();
    setLoginMarker();
    stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/logout': { status: 500, body: { message: 'boom' } },
    });
    const { user } = renderApp({ path: '/final-steps' });
    await user.click(await screen.findByRole('button', { name: /Account/ }));
    await user.click(await screen.findByRole('button', { name: 'Log Out' }));
    expect(await screen.findByText(ERROR_SCREEN_TITLE)).toBeInTheDocument();
  });

  it('is hidden for service users', async () => {
    setServiceUser(true);
    renderApp({ path: '/login' });
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Account/ })).not.toBeInTheDocument(),
    );
  });
});
