import { Button, Text } from '@mantine/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { normalizeEmail } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { buildCarriedState, readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from './auth-card';
import { renderFieldError } from './field-error';
import { MessageAlert } from './message-alert';
import { PasswordChecklist } from './password-checklist';
import { PasswordField } from './password-field';
import { useAuthForm } from './use-auth-form';

export function ResetCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { answers } = readAuthLocationState(location.state);
  // The e-mailed link is /reset?username=…&id=…; the id proves the link came from the mailbox.
  const username = normalizeEmail(searchParams.get('username') ?? '');
  const id = searchParams.get('id') ?? '';
  const form = useAuthForm('reset', { username, id, password: '', confirm_password: '' });
  const reset = useResetPassword();

  const linkProblem = form.errors.id?.[0] ?? form.errors.username?.[0];

  const submit = () => {
    hideCardErrorToast('Reset Password Card Error');
    if (!form.validateForSubmit()) return;
    reset.mutate(
      {
        username,
        id,
        password: form.values.password ?? '',
        confirm_password: form.values.confirm_password ?? '',
      },
      {
        onSuccess: (response) =>
          void navigate(PATHS.login, {
            state: buildCarriedState(answers, { username, successMessage: response.message }),
          }),
        onError: (error) => showCardErrorToast('Reset Password Card Error', error.message),
      },
    );
  };

  return (
    <AuthCard
      title="Reset Password"
      onSubmit={submit}
      answers={answers}
      footer={{
        question: 'Need a new reset link?',
        linkLabel: 'Forgot password',
        to: PATHS.forgot,
      }}
      notice={linkProblem && <MessageAlert kind="error" message={linkProblem} />}
    >
      {username && (
        <Text size="sm">
          Choose a new password for <strong>{username}</strong>.
        </Text>
      )}
      <PasswordField
        label="New password"
        autoComplete="new-password"
        required
        value={form.values.password ?? ''}
        onChange={(event) => form.setValue('password', event.currentTarget.value)}
        error={renderFieldError(form.visibleErrors.password)}
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        descriptionProps={{ component: 'div' }}
        description={<PasswordChecklist password={form.values.password ?? ''} />}
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        required
        value={form.values.confirm_password ?? ''}
        onChange={(event) => form.setValue('confirm_password', event.currentTarget.value)}
        error={renderFieldError(form.visibleErrors.confirm_password)}
      />
      <Button type="submit" loading={reset.isPending} fullWidth>
        Reset Password
      </Button>
    </AuthCard>
  );
}
