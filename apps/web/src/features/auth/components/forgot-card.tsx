import { Button, TextInput } from '@mantine/core';
import { useLocation } from 'react-router';
import { normalizeEmail } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useRequestPasswordReset } from '../api/forgot-password';
import { AuthCard } from './auth-card';
import { MessageAlert } from './message-alert';
import { useAuthCardForm } from './use-auth-card-form';

export function ForgotCard() {
  const location = useLocation();
  const { answers, username } = readAuthLocationState(location.state);
  const form = useAuthCardForm('forgot', { username: username ?? '' });
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
        {...form.field('username')}
      />
      <Button type="submit" loading={request.isPending} fullWidth>
        Send Reset Link
      </Button>
    </AuthCard>
  );
}
