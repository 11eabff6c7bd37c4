import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@admissions/form';
import { MESSAGES } from '@admissions/api-contract';
import { renderApp } from './support/render-app';
import { stubFetch } from './support/fetch-stub';

const STRONG = 'Correct-Horse-9-Battery';
const TYPED_ANSWERS = {
  first_name: 'Ann',
  ssn: '123-45-6789',
  alien_registration_number: 'A123',
  conviction_comment: 'x',
  suspended_comment: 'y',
};
const SAFE_ANSWERS = { first_name: 'Ann' };

function checklistItem(rule: string): HTMLElement {
  const item = screen.getByTestId('password-checklist').querySelector(`[data-rule="${rule}"]`);
  if (!(item instanceof HTMLElement)) throw new Error(`No checklist item ${rule}`);
  return item;
}

describe('/signup', () => {
  it('shows the card, the checklist and the footer link to /login', async () => {
    renderApp({ path: '/signup' });
    expect(await screen.findByRole('heading', { name: 'Sign Up', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Already have an account?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    const checklist = screen.getByTestId('password-checklist');
    expect(within(checklist).getAllByRole('listitem')).toHaveLength(6);
    // Nothing is met before anything is typed (not even "no spaces at the beginning or end").
    expect(checklist.querySelectorAll('[data-met="true"]')).toHaveLength(0);
  });

  it('ticks the checklist live as the password is typed', async () => {
    const { user } = renderApp({ path: '/signup' });
    const password = await screen.findByLabelText(/^Password/);
    await user.type(password, 'abc');
    expect(checklistItem('lowercase')).toHaveAttribute('data-met', 'true');
    expect(checklistItem('uppercase')).toHaveAttribute('data-met', 'false');
    expect(checklistItem('length')).toHaveAttribute('data-met', 'false');
    await user.clear(password);
    await user.type(password, STRONG);
    for (const rule of ['length', 'uppercase', 'lowercase', 'number', 'special', 'whitespace']) {
      expect(checklistItem(rule)).toHaveAttribute('data-met', 'true');
    }
    // The checklist is announced with the input.
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('blocks a weak password and an invalid e-mail', async () => {
    const { calls } = stubFetch({});
    const { user } = renderApp({ path: '/signup' });
    await user.type(await screen.findByLabelText(/Email address/), 'nobody');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText(AUTH_MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('signs up and goes to /confirm with the username, message and stripped answers', async () => {
    const { calls } = stubFetch({
      'POST /public/signup': { body: { message: MESSAGES.signupSent } },
    });
    const { user, router } = renderApp({ path: '/signup', state: { answers: TYPED_ANSWERS } });
    await user.type(await screen.findByLabelText(/Email address/), 'New.Student@Example.edu');
    await user.type(screen.getByLabelText(/^Password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(
      await screen.findByRole('heading', { name: 'Confirm Your Account' }),
    ).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ username: 'new.student@example.edu', password: STRONG });
    expect(router.state.location.pathname).toBe('/confirm');
    expect(router.state.location.state).toEqual({
      username: 'new.student@example.edu',
      successMessage: MESSAGES.signupSent,
      answers: SAFE_ANSWERS,
    });
    expect(screen.getByTestId('success-message')).toHaveTextContent(MESSAGES.signupSent);
    expect(screen.getByText('new.student@example.edu')).toBeInTheDocument();
  });

  it('titles sign-up failures "Sign Up Card Error"', async () => {
    stubFetch({
      'POST /public/signup': { status: 400, body: { message: MESSAGES.passwordTooCommon } },
    });
    const { user } = renderApp({ path: '/signup' });
    await user.type(await screen.findByLabelText(/Email address/), 'a@example.edu');
    await user.type(screen.getByLabelText(/^Password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Sign Up Card Error')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.passwordTooCommon)).toBeInTheDocument();
  });

  it('carries the answers, without sensitive keys, on the footer link', async () => {
    const { user, router } = renderApp({ path: '/signup', state: { answers: TYPED_ANSWERS } });
    await user.click(await screen.findByRole('link', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ answers: SAFE_ANSWERS });
  });
});

describe('/confirm', () => {
  const handedOver = {
    username: 'student@example.edu',
    successMessage: MESSAGES.signupSent,
    answers: SAFE_ANSWERS,
  };

  it('insists on exactly 6 digits', async () => {
    const { calls } = stubFetch({});
    const { user } = renderApp({ path: '/confirm', state: handedOver });
    const code = await screen.findByLabelText(/Confirmation code/);
    await user.type(code, '12a4');
    expect(code).toHaveAccessibleDescription(AUTH_MESSAGES.codeInvalid);
    await user.click(screen.getByRole('button', { name: 'Confirm Account' }));
    expect(calls).toHaveLength(0);
  });

  it('confirms and goes to /login with the success message and answers', async () => {
    const { calls } = stubFetch({
      'POST /public/confirm': { body: { message: MESSAGES.confirmed } },
    });
    const { user, router } = renderApp({ path: '/confirm', state: handedOver });
    await user.type(await screen.findByLabelText(/Confirmation code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm Account' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ username: 'student@example.edu', code: '123456' });
    expect(screen.getByTestId('success-message')).toHaveTextContent(MESSAGES.confirmed);
    expect(screen.getByLabelText(/Email address/)).toHaveValue('student@example.edu');
    expect(router.state.location.state).toMatchObject({ answers: SAFE_ANSWERS });
  });

  it('titles confirm failures "Confirm Card Error"', async () => {
    stubFetch({
      'POST /public/confirm': { status: 400, body: { message: MESSAGES.codeRejected } },
    });
    const { user } = renderApp({ path: '/confirm', state: handedOver });
    await user.type(await screen.findByLabelText(/Confirmation code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm Account' }));
    expect(await screen.findByText('Confirm Card Error')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.codeRejected)).toBeInTheDocument();
  });

  // Issue 17: a wrong code, then the right one: the stale "invalid code" toast followed the
  // applicant onto /login and, after logging in, across the first page of the application.
  it('withdraws the failure toast once the code is entered again and accepted', async () => {
    let attempt = 0;
    stubFetch({
      'POST /public/confirm': () =>
        ++attempt === 1
          ? { status: 400, body: { message: MESSAGES.codeRejected } }
          : { body: { message: MESSAGES.confirmed } },
    });
    const { user } = renderApp({ path: '/confirm', state: handedOver });
    const code = await screen.findByLabelText(/Confirmation code/);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm Account' }));
    expect(await screen.findByText(MESSAGES.codeRejected)).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm Account' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(MESSAGES.codeRejected)).not.toBeInTheDocument());
    expect(screen.queryByText('Confirm Card Error')).not.toBeInTheDocument();
  });

  it('resends the code with a "Success" toast', async () => {
    const { calls } = stubFetch({
      'POST /public/resend-confirm': { body: { message: MESSAGES.resendSent } },
    });
    const { user } = renderApp({ path: '/confirm', state: handedOver });
    await user.click(await screen.findByRole('button', { name: 'Resend Code' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.resendSent)).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ username: 'student@example.edu' });
  });

  it('asks for the e-mail when it was not handed over', async () => {
    renderApp({ path: '/confirm' });
    expect(await screen.findByLabelText(/Email address/)).toBeInTheDocument();
    expect(screen.getByText('Already confirmed your account?')).toBeInTheDocument();
  });
});
