import { Button, TextInput } from '@mantine/core';
import { useLocation } from 'react-router';
import { normalizeEmail } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useRequestPasswordReset } from '../api/forgot-password';
import { AuthCard } from './auth-card';
import { renderFieldError } from './field-error';
import { MessageAlert } from './message-alert';
import { useAuthForm } from './use-auth-form';

export function ForgotCard() {
  const location = useLocation();
  const { answers, username } = readAuthLocationState(location.state);
  const form = useAuthForm('forgot', { username: username ?? '' });
  const request = useRequestPasswordReset();

  const submit = () => {
    hideCardErrorToast('Forgot Password Card Error');
    if (!form.validateForSubmit()) return;
    request.mutate(
      { username: normalizeEmail(form.values.username ?? '') },
      { onError: (error) => showCardErrorToast('Forgot Password Card Error', error.message) },
    );
  };

  return (
    <AuthCard
      title="Forgot Password"
      onSubmit={submit}
      answers={answers}
      footer={{ question: 'Remembered your password?', linkLabel: 'Log in', to: PATHS.login }}
      notice={request.isSuccess && <MessageAlert kind="success" message={request.data.message} />}
    >
      <TextInput
        label="Email address"
        type="email"
        autoComplete="username"
        required
        description="We will email you a link to choose a new password."
        value={form.values.username ?? ''}
        onChange={(event) => form.setValue('username', event.currentTarget.value)}
        error={renderFieldError(form.visibleErrors.username)}
      />
      <Button type="submit" loading={request.isPending} fullWidth>
        Send Reset Link
      </Button>
    </AuthCard>
  );
}
