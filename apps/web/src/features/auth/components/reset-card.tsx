import { Button, Text } from '@mantine/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { normalizeEmail, validateAuthForm } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { buildCarriedState, readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from './auth-card';
import { MessageAlert } from './message-alert';
import { PasswordChecklist } from './password-checklist';
import { PasswordField } from './password-field';
import { useAuthCardForm } from './use-auth-card-form';

export function ResetCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { answers } = readAuthLocationState(location.state);
  // The e-mailed link is /reset?username=…&id=…; the id proves the link came from the mailbox.
  const username = normalizeEmail(searchParams.get('username') ?? '');
  const id = searchParams.get('id') ?? '';
  const form = useAuthCardForm('reset', { username, id, password: '', confirm_password: '' });
  const reset = useResetPassword();

  // The link's own fields are never typed: their problem shows above the card at once.
  const linkErrors = validateAuthForm('reset', { username, id });
  const linkProblem = linkErrors.id?.[0] ?? linkErrors.username?.[0];

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
        {...form.field('password')}
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        descriptionProps={{ component: 'div' }}
        description={<PasswordChecklist password={form.values.password ?? ''} />}
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        required
        {...form.field('confirm_password')}
      />
      <Button type="submit" loading={reset.isPending} fullWidth>
        Reset Password
      </Button>
    </AuthCard>
  );
}
