import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useStaffSetup } from '../api/staff-api';
import { STAFF_PATHS } from '../lib/staff-paths';
import { STAFF_TITLE } from './staff-layout';

/** /staff/setup?token=…: the one-time link `staff add` prints; the member chooses a password. */
export function StaffSetupPage() {
  const location = useLocation();
  const [token] = useState(() => new URLSearchParams(location.search).get('token') ?? '');
  const setup = useStaffSetup();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setup.mutate({ token, password, confirm_password: confirm });
  };
  return (
    <Container size={460} py="xl" component="main">
      <title>{`Set your password | ${STAFF_TITLE}`}</title>
      <Stack gap="lg">
        <Title order={1} size="h2">
          {STAFF_TITLE}: set your password
        </Title>
        <Paper withBorder p="lg" radius="md">
          {setup.isSuccess ? (
            <Stack gap="md">
              <Alert color="green" role="status">
                {setup.data.message}
              </Alert>
              <Anchor component={Link} to={STAFF_PATHS.signIn}>
                Go to sign in
              </Anchor>
            </Stack>
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <Text size="sm">
                  Choose the password for your staff account. You will set up an authenticator app
                  when you first sign in.
                </Text>
                {setup.error && (
                  <Alert color="red" role="alert">
                    {setup.error.message}
                  </Alert>
                )}
                <PasswordInput
                  label="New password"
                  autoComplete="new-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                />
                <PasswordInput
                  label="Confirm password"
                  autoComplete="new-password"
                  required
                  value={confirm}
                  onChange={(event) => setConfirm(event.currentTarget.value)}
                />
                <Button type="submit" loading={setup.isPending}>
                  Set password
                </Button>
              </Stack>
            </form>
          )}
        </Paper>
      </Stack>
    </Container>
  );
}
