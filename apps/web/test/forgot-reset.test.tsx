import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@admissions/form';
import { MESSAGES } from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { stubFetch } from './support/fetch-stub';

const STRONG = 'Correct-Horse-9-Battery';

describe('/forgot', () => {
  it('validates the e-mail, then shows the success notice', async () => {
    const { calls } = stubFetch({
      'POST /public/forgot-password': { body: { message: MESSAGES.forgotSent } },
    });
    const { user } = renderApp({ path: '/forgot' });
    expect(await screen.findByRole('heading', { name: 'Forgot Password' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByText(AUTH_MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.type(screen.getByLabelText(/Email address/), 'student@example.edu');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByTestId('success-message')).toHaveTextContent(MESSAGES.forgotSent);
    expect(calls[0]?.body).toEqual({ username: 'student@example.edu' });
  });

  it('titles failures "Forgot Password Card Error"', async () => {
    stubFetch({
      'POST /public/forgot-password': { status: 429, body: { message: MESSAGES.rateLimited } },
    });
    const { user } = renderApp({ path: '/forgot' });
    await user.type(await screen.findByLabelText(/Email address/), 'student@example.edu');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Forgot Password Card Error')).toBeInTheDocument();
  });

  it('is reached from the login card and links back', async () => {
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.getByText('Remembered your password?')).toBeInTheDocument();
  });
});

describe('/reset', () => {
  const path = '/reset?username=Student%40Example.edu&id=reset-id-1';

  it('checks the new password live and requires the two to match', async () => {
    const { calls } = stubFetch({});
    const { user } = renderApp({ path });
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^New password/), STRONG);
    expect(
      screen.getByTestId('password-checklist').querySelectorAll('[data-met="false"]'),
    ).toHaveLength(0);
    await user.type(screen.getByLabelText(/^Confirm password/), `${STRONG}x`);
    expect(screen.getByText(AUTH_MESSAGES.passwordsDiffer)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(calls).toHaveLength(0);
  });

  // The confirmation's rule reads the new password: once it shows, it follows either field.
  it('re-checks the confirmation when the new password changes, and not on focus alone', async () => {
    stubFetch({});
    const { user } = renderApp({ path });
    const password = await screen.findByLabelText(/^New password/);
    const confirm = screen.getByLabelText(/^Confirm password/);
    await user.click(confirm);
    await user.click(password);
    expect(screen.queryByText(AUTH_MESSAGES.passwordsDiffer)).not.toBeInTheDocument();
    await user.type(confirm, `${STRONG}x`);
    expect(screen.getByText(AUTH_MESSAGES.passwordsDiffer)).toBeInTheDocument();
    await user.type(password, `${STRONG}x`);
    expect(screen.queryByText(AUTH_MESSAGES.passwordsDiffer)).not.toBeInTheDocument();
    await user.type(password, 'y');
    expect(screen.getByText(AUTH_MESSAGES.passwordsDiffer)).toBeInTheDocument();
  });

  it('sends username, id and both passwords, then goes to /login with the message', async () => {
    const { calls } = stubFetch({
      'POST /public/reset-password': { body: { message: MESSAGES.resetDone } },
    });
    const { user, router } = renderApp({ path });
    await user.type(await screen.findByLabelText(/^New password/), STRONG);
    await user.type(screen.getByLabelText(/^Confirm password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      username: 'student@example.edu',
      id: 'reset-id-1',
      password: STRONG,
      confirm_password: STRONG,
    });
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByTestId('success-message')).toHaveTextContent(MESSAGES.resetDone);
  });

  it('titles failures "Reset Password Card Error"', async () => {
    stubFetch({
      'POST /public/reset-password': { status: 400, body: { message: MESSAGES.resetRejected } },
    });
    const { user } = renderApp({ path });
    await user.type(await screen.findByLabelText(/^New password/), STRONG);
    await user.type(screen.getByLabelText(/^Confirm password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Reset Password Card Error')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.resetRejected)).toBeInTheDocument();
  });

  it('says so when the link lacks its id', async () => {
    renderApp({ path: '/reset?username=student%40example.edu' });
    expect(await screen.findByTestId('error-message')).toHaveTextContent(
      AUTH_MESSAGES.resetIdMissing,
    );
  });
});
