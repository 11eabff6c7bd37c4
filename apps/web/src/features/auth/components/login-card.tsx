import { useState } from 'react';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { AUTH_ERROR_CODES } from '@admissions/api-contract';
import { validateAuthForm, normalizeEmail } from '@admissions/form';
import { ServerError } from '../../../shared/api/errors';
import { readAuthLocationState, buildCarriedState } from '../../../shared/lib/auth-location-state';
import { preloadRoute } from '../../../shared/lib/route-preload';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useLogin } from '../api/login';
import { saveCarriedAnswers } from '../api/save-carried-answers';
import { useResendConfirmationCode } from '../api/resend-confirm';
import { AuthCard } from './auth-card';
import { MessageAlert } from './message-alert';
import { PasswordField } from './password-field';
import { useAuthCardForm } from './use-auth-card-form';
import { DEFAULT_ROUTE, PATHS } from '../../../config/paths';

export function LoginCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const handedOver = readAuthLocationState(location.state);
  const { answers } = handedOver;
  const form = useAuthCardForm('login', { username: handedOver.username ?? '', password: '' });
  const [resendError, setResendError] = useState<string>();
  const login = useLogin();
  const resend = useResendConfirmationCode();

  const username = form.values.username ?? '';

  const submit = () => {
    hideCardErrorToast('Login Card Error');
    setResendError(undefined);
    if (!form.validateForSubmit()) return;
    // A successful login lands on the application: its code downloads while the server checks.
    preloadRoute(DEFAULT_ROUTE);
    login.mutate(
      { username: normalizeEmail(username), password: form.values.password ?? '' },
      {
        onSuccess: () => {
          // The answers typed before logging in are saved before the application loads them.
          void saveCarriedAnswers(answers)
            .catch((error: unknown) =>
              showCardErrorToast(
                'Login Card Error',
                error instanceof Error ? error.message : 'Your answers could not be saved.',
              ),
            )
            .finally(() => void navigate(DEFAULT_ROUTE, { state: buildCarriedState(answers) }));
        },
        onError: (error) => {
          // The right password on an account never confirmed: the confirm screen, with the
          // address filled in and its resend button, instead of a dead end on /login.
          if (error instanceof ServerError && error.code === AUTH_ERROR_CODES.notConfirmed) {
            void navigate(PATHS.confirm, {
              state: buildCarriedState(answers, {
                username: normalizeEmail(username),
                errorMessage: error.message,
              }),
            });
            return;
          }
          showCardErrorToast('Login Card Error', error.message);
        },
      },
    );
  };

  const resendCode = () => {
    hideCardErrorToast('Resend Confirmation Code Error');
    const [message] = validateAuthForm('resend', { username: username.trim() }).username ?? [];
    setResendError(message);
    if (message) return;
    const address = normalizeEmail(username);
    resend.mutate(
      { username: address },
      {
        onSuccess: (response) =>
          void navigate(PATHS.confirm, {
            state: buildCarriedState(answers, {
              username: address,
              successMessage: response.message,
            }),
          }),
        onError: (error) => showCardErrorToast('Resend Confirmation Code Error', error.message),
      },
    );
  };

  const usernameField = form.field('username');

  return (
    <AuthCard
      title="Log In"
      onSubmit={submit}
      answers={answers}
      footer={{ question: "Don't have an account?", linkLabel: 'Sign up', to: PATHS.signup }}
      notice={
        <>
          {handedOver.errorMessage && (
            <MessageAlert kind="error" message={handedOver.errorMessage} />
          )}
          {handedOver.successMessage && (
            <MessageAlert kind="success" message={handedOver.successMessage} />
          )}
        </>
      }
    >
      <TextInput
        label="Email address"
        type="email"
        autoComplete="username"
        required
        {...usernameField}
        onChange={(event) => {
          setResendError(undefined);
          usernameField.onChange(event);
        }}
        error={resendError ?? usernameField.error}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        required
        {...form.field('password')}
      />
      <Stack gap="xs">
        <Button type="submit" loading={login.isPending} fullWidth>
          Submit
        </Button>
        <Group justify="space-between" gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={resendCode}
            loading={resend.isPending}
          >
            Resend confirmation code?
          </Button>
          <Anchor component={Link} to={PATHS.forgot} state={buildCarriedState(answers)} size="sm">
            Forgot password?
          </Anchor>
        </Group>
      </Stack>
    </AuthCard>
  );
}
