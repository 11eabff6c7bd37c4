import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Image,
  List,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Navigate, useLocation, useNavigate } from 'react-router';
import {
  STAFF_MESSAGES,
  routePath,
  type EndpointRoute,
  type StaffLoginResponse,
} from '@admissions/api-contract';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { useStaffLogin, useStaffMe, useStaffMethods, useStaffTotp } from '../api/staff-api';
import { readSignInState, STAFF_PATHS } from '../lib/staff-paths';
import { STAFF_TITLE } from './staff-layout';
import classes from './staff.module.css';

const SIGN_IN_ERRORS: Record<string, string> = {
  refused: STAFF_MESSAGES.oidcRefused,
  failed: STAFF_MESSAGES.oidcFailed,
};

type Step = { kind: 'password' } | { kind: 'code'; enrol: StaffLoginResponse['enrol'] | null };

/**
 * /staff/sign-in: the institution's identity provider (when configured), or a local account's
 * e-mail and password, then the authenticator code (enrolled from a QR code the first time).
 */
export function StaffSignInPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useStaffMe();
  const methods = useStaffMethods();
  const handedOver = readSignInState(location.state);
  const providerError =
    SIGN_IN_ERRORS[new URLSearchParams(location.search).get('sign_in_error') ?? ''];
  const [step, setStep] = useState<Step>({ kind: 'password' });

  if (me.isPending || methods.isPending) return <FullScreenLoader label="Loading" />;
  if (me.data) return <Navigate to={handedOver.next ?? STAFF_PATHS.list} replace />;

  const done = () => void navigate(handedOver.next ?? STAFF_PATHS.list, { replace: true });

  return (
    <Container size={460} py="xl" component="main">
      <title>{`Sign in | ${STAFF_TITLE}`}</title>
      <Stack gap="lg">
        <Title order={1} size="h2">
          {STAFF_TITLE}: sign in
        </Title>
        {step.kind === 'password' && (handedOver.message ?? providerError) && (
          <Alert color="red" role="alert" title="Not signed in">
            {handedOver.message ?? providerError}
          </Alert>
        )}
        <Paper withBorder p="lg" radius="md">
          {step.kind === 'password' ? (
            <Stack gap="lg">
              {methods.data?.oidc && (
                <>
                  <Button
                    component="a"
                    href={routePath('GET /staff/auth/oidc/start' satisfies EndpointRoute)}
                    size="md"
                    fullWidth
                  >
                    Sign in with your institution account
                  </Button>
                  <Text ta="center" size="sm" c="dimmed">
                    or with a staff account of this site
                  </Text>
                </>
              )}
              <PasswordStep
                onNext={(answer) => setStep({ kind: 'code', enrol: answer.enrol ?? null })}
              />
            </Stack>
          ) : (
            <CodeStep
              enrol={step.enrol ?? null}
              onDone={done}
              onRestart={() => setStep({ kind: 'password' })}
            />
          )}
        </Paper>
      </Stack>
    </Container>
  );
}

function PasswordStep({ onNext }: { onNext: (answer: StaffLoginResponse) => void }) {
  const login = useStaffLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) return;
    login.mutate({ email: email.trim(), password }, { onSuccess: onNext });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {login.error && (
          <Alert color="red" role="alert">
            {login.error.message}
          </Alert>
        )}
        <TextInput
          label="Email address"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Button type="submit" loading={login.isPending}>
          Continue
        </Button>
      </Stack>
    </form>
  );
}

function CodeStep({
  enrol,
  onDone,
  onRestart,
}: {
  enrol: StaffLoginResponse['enrol'] | null;
  onDone: () => void;
  onRestart: () => void;
}) {
  const totp = useStaffTotp();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    totp.mutate(code.replace(/\s/g, ''), { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {enrol && <Enrolment enrol={enrol} />}
        {totp.error && (
          <Alert color="red" role="alert">
            {totp.error.message}
          </Alert>
        )}
        <TextInput
          label="6-digit code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          required
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" loading={totp.isPending} disabled={code.trim().length < 6}>
          Sign in
        </Button>
        {/* The pending sign-in lasts minutes: after a long pause, the password again. */}
        <Anchor component="button" type="button" size="sm" onClick={onRestart}>
          Start again with the password
        </Anchor>
      </Stack>
    </form>
  );
}

/** First sign-in: the secret to add to an authenticator app, as a QR code and as text. */
function Enrolment({ enrol }: { enrol: NonNullable<StaffLoginResponse['enrol']> }) {
  const [qr, setQr] = useState<string>();
  useEffect(() => {
    let live = true;
    // The QR encoder loads only for an enrolment.
    void import('qrcode')
      .then((qrcode) => qrcode.toString(enrol.otpauth_uri, { type: 'svg', margin: 2 }))
      .then((svg) => {
        if (live) setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      });
    return () => {
      live = false;
    };
  }, [enrol.otpauth_uri]);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Set up your second factor
      </Title>
      <List type="ordered" size="sm" spacing={4}>
        <List.Item>Open an authenticator app on your phone.</List.Item>
        <List.Item>Scan this QR code, or type the key below.</List.Item>
        <List.Item>Enter the 6-digit code the app shows.</List.Item>
      </List>
      {qr && (
        <Image
          src={qr}
          className={classes.qr}
          alt="QR code of your authenticator key"
          data-testid="totp-qr"
        />
      )}
      <Text size="sm">
        Key:{' '}
        <Text span className={classes.secret} data-testid="totp-secret">
          {enrol.secret}
        </Text>
      </Text>
    </Stack>
  );
}
