import { TextInput, Button } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { normalizeEmail } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { buildCarriedState, readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useSignup } from '../api/signup';
import { AuthCard } from './auth-card';
import { renderFieldError } from './field-error';
import { PasswordChecklist } from './password-checklist';
import { PasswordField } from './password-field';
import { useAuthForm } from './use-auth-form';

export function SignupCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const { answers, username: handedUsername } = readAuthLocationState(location.state);
  const form = useAuthForm('signup', { username: handedUsername ?? '', password: '' });
  const signup = useSignup();

  const submit = () => {
    hideCardErrorToast('Sign Up Card Error');
    if (!form.validateForSubmit()) return;
    const username = normalizeEmail(form.values.username ?? '');
    signup.mutate(
      { username, password: form.values.password ?? '' },
      {
        onSuccess: (response) =>
          void navigate(PATHS.confirm, {
            state: buildCarriedState(answers, { username, successMessage: response.message }),
          }),
        onError: (error) => showCardErrorToast('Sign Up Card Error', error.message),
      },
    );
  };

  return (
    <AuthCard
      title="Sign Up"
      onSubmit={submit}
      answers={answers}
      footer={{ question: 'Already have an account?', linkLabel: 'Log in', to: PATHS.login }}
    >
      <TextInput
        label="Email address"
        type="email"
        autoComplete="email"
        required
        value={form.values.username ?? ''}
        onChange={(event) => form.setValue('username', event.currentTarget.value)}
        error={renderFieldError(form.visibleErrors.username)}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        required
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        descriptionProps={{ component: 'div' }}
        description={<PasswordChecklist password={form.values.password ?? ''} />}
        value={form.values.password ?? ''}
        onChange={(event) => form.setValue('password', event.currentTarget.value)}
        error={renderFieldError(form.visibleErrors.password)}
      />
      <Button type="submit" loading={signup.isPending} fullWidth>
        Create Account
      </Button>
    </AuthCard>
  );
}
