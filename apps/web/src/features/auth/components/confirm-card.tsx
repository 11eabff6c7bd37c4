import { Button, Text, TextInput } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { normalizeEmail, validateAuthForm } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { buildCarriedState, readAuthLocationState } from '../../../shared/lib/auth-location-state';
import {
  hideCardErrorToast,
  showCardErrorToast,
  showSuccessToast,
} from '../../../shared/ui/notify';
import { useConfirmAccount } from '../api/confirm';
import { useResendConfirmationCode } from '../api/resend-confirm';
import { AuthCard } from './auth-card';
import classes from './auth-card.module.css';
import { MessageAlert } from './message-alert';
import { useAuthCardForm } from './use-auth-card-form';

export function ConfirmCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const handedOver = readAuthLocationState(location.state);
  const { answers } = handedOver;
  // The address normally arrives from sign-up; someone who opens /confirm directly types it.
  const addressKnown = Boolean(handedOver.username);
  const form = useAuthCardForm('confirm', { username: handedOver.username ?? '', code: '' });
  const confirm = useConfirmAccount();
  const resend = useResendConfirmationCode();

  const username = normalizeEmail(form.values.username ?? '');

  const submit = () => {
    hideCardErrorToast('Confirm Card Error');
    if (!form.validateForSubmit()) return;
    confirm.mutate(
      { username, code: (form.values.code ?? '').trim() },
      {
        onSuccess: (response) =>
          void navigate(PATHS.login, {
            state: buildCarriedState(answers, { username, successMessage: response.message }),
          }),
        onError: (error) => showCardErrorToast('Confirm Card Error', error.message),
      },
    );
  };

  const resendCode = () => {
    hideCardErrorToast('Resend Confirmation Code Error');
    const [message] = validateAuthForm('resend', { username }).username ?? [];
    if (message) {
      showCardErrorToast('Resend Confirmation Code Error', message);
      return;
    }
    resend.mutate(
      { username },
      {
        onSuccess: (response) => showSuccessToast(response.message),
        onError: (error) => showCardErrorToast('Resend Confirmation Code Error', error.message),
      },
    );
  };

  return (
    <AuthCard
      title="Confirm Your Account"
      onSubmit={submit}
      answers={answers}
      footer={{ question: 'Already confirmed your account?', linkLabel: 'Log in', to: PATHS.login }}
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
      {addressKnown ? (
        <Text size="sm">
          Enter the 6-digit code we sent to <strong>{username}</strong>.
        </Text>
      ) : (
        <TextInput
          label="Email address"
          type="email"
          autoComplete="username"
          required
          {...form.field('username')}
        />
      )}
      <TextInput
        label="Confirmation code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        {...form.field('code')}
      />
      {/* Side by side while both labels fit, one under the other on a phone: never cut short. */}
      <div className={classes.actions}>
        <Button type="submit" loading={confirm.isPending}>
          Confirm Account
        </Button>
        <Button variant="outline" onClick={resendCode} loading={resend.isPending}>
          Resend Code
        </Button>
      </div>
    </AuthCard>
  );
}
