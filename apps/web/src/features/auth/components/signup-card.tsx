import { TextInput, Button } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { normalizeEmail } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { buildCarriedState, readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { hideCardErrorToast, showCardErrorToast } from '../../../shared/ui/notify';
import { useSignup } from '../api/signup';
import { AuthCard } from './auth-card';
import { PasswordChecklist } from './password-checklist';
import { PasswordField } from './password-field';
import { useAuthCardForm } from './use-auth-card-form';

export function SignupCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const { answers, username: handedUsername } = readAuthLocationState(location.state);
  const form = useAuthCardForm('signup', { username: handedUsername ?? '', password: '' });
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
        {...form.field('username')}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        required
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        descriptionProps={{ component: 'div' }}
        description={<PasswordChecklist password={form.values.password ?? ''} />}
        {...form.field('password')}
      />
      <Button type="submit" loading={signup.isPending} fullWidth>
        Create Account
      </Button>
    </AuthCard>
  );
}
