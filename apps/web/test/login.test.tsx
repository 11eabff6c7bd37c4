import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { setLoginMarker, stubFetch } from './support/fetch-stub';

const PROFILE = {
  answer: {},
  document_answer: {},
  username: 'student@example.edu',
  last_page: null,
  successful_login: ['2025-01-01T00:00:00Z'],
  web_status: [],
};

describe('/login', () => {
  it('shows the card with its fields, actions and footer link', async () => {
    renderApp({ path: '/login' });
    expect(await screen.findByRole('heading', { name: 'Log In', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText(/Email address/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend confirmation code?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot',
    );
    expect(screen.getByText("Don't have an account?")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });

  it('blocks submit and shows the login messages when the fields are empty', async () => {
    const { calls } = stubFetch({});
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    const email = screen.getByLabelText(/Email address/);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please provide a valid email address.');
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('Password is required.');
    expect(calls).toHaveLength(0);
  });

  it('validates on every change', async () => {
    const { user } = renderApp({ path: '/login' });
    const email = await screen.findByLabelText(/Email address/);
    await user.type(email, 'student@');
    expect(screen.getByText('Please provide a valid email address.')).toBeInTheDocument();
    await user.type(email, 'example.edu');
    expect(screen.queryByText('Please provide a valid email address.')).not.toBeInTheDocument();
    // Only the changed field speaks up before a submit attempt.
    expect(screen.queryByText('Password is required.')).not.toBeInTheDocument();
  });

  it('logs in with a JSON request and lands on /about with the profile', async () => {
    const { calls } = stubFetch({
      'POST /public/login': { body: { message: 'ok' }, effect: () => setLoginMarker() },
      'GET /api/profile': { body: PROFILE },
    });
    const { user, router } = renderApp({ path: '/login' });
    await user.type(await screen.findByLabelText(/Email address/), 'Student@Example.edu');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'About You' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/about');
    const login = calls.find((call) => call.url === '/public/login');
    expect(login?.method).toBe('POST');
    expect(login?.body).toEqual({ username: 'student@example.edu', password: 'secret' });
    expect(login?.headers['content-type']).toBe('application/json');
    expect(login?.credentials).toBe('same-origin');
  });

  it('shows a refused login in a "Login Card Error" toast and stays put', async () => {
    stubFetch({
      'POST /public/login': { status: 401, body: { message: MESSAGES.loginFailed } },
    });
    const { user, router } = renderApp({ path: '/login' });
    await user.type(await screen.findByLabelText(/Email address/), 'student@example.edu');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Login Card Error')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.loginFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close notification' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows messages handed over in navigation state', async () => {
    renderApp({
      path: '/login',
      state: { errorMessage: MESSAGES.sessionInvalid, successMessage: MESSAGES.loggedOut },
    });
    expect(await screen.findByTestId('error-message')).toHaveTextContent(MESSAGES.sessionInvalid);
    expect(screen.getByTestId('success-message')).toHaveTextContent(MESSAGES.loggedOut);
  });

  it('needs a valid e-mail to resend a confirmation code', async () => {
    const { calls } = stubFetch({});
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Resend confirmation code?' }));
    expect(screen.getByLabelText(/Email address/)).toHaveAccessibleDescription(
      'You must provide a valid email address to resend a confirmation code.',
    );
    expect(calls).toHaveLength(0);
  });

  it('resends a code and moves to /confirm with the address and message', async () => {
    stubFetch({ 'POST /public/resend-confirm': { body: { message: MESSAGES.resendSent } } });
    const { user, router } = renderApp({
      path: '/login',
      state: { answers: { first_name: 'Ann' } },
    });
    await user.type(await screen.findByLabelText(/Email address/), 'student@example.edu');
    await user.click(screen.getByRole('button', { name: 'Resend confirmation code?' }));
    expect(
      await screen.findByRole('heading', { name: 'Confirm Your Account' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('success-message')).toHaveTextContent(MESSAGES.resendSent);
    expect(router.state.location.state).toEqual({
      username: 'student@example.edu',
      successMessage: MESSAGES.resendSent,
      answers: { first_name: 'Ann' },
    });
  });

  it('titles resend failures "Resend Confirmation Code Error"', async () => {
    stubFetch({
      'POST /public/resend-confirm': { status: 429, body: { message: MESSAGES.rateLimited } },
    });
    const { user } = renderApp({ path: '/login' });
    await user.type(await screen.findByLabelText(/Email address/), 'student@example.edu');
    await user.click(screen.getByRole('button', { name: 'Resend confirmation code?' }));
    const toast = (await screen.findByText('Resend Confirmation Code Error')).closest(
      '.mantine-Notification-root',
    );
    expect(toast).not.toBeNull();
    expect(within(toast as HTMLElement).getByText(MESSAGES.rateLimited)).toBeInTheDocument();
  });

  it('keeps the password hidden until the toggle is pressed', async () => {
    const { user } = renderApp({ path: '/login' });
    const password = await screen.findByLabelText(/^Password/);
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    await waitFor(() => expect(password).toHaveAttribute('type', 'password'));
  });
});
