import { Button, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '../../../config/paths';
import { useSession } from '../../../shared/lib/session';
import { useLogout } from '../api/logout';
import classes from './account-popover.module.css';

/** SPEC §2 "Account popover": who is logged in and how to leave, or how to get in. */
export function AccountPopover() {
  const session = useSession();
  const logout = useLogout();

  if (session.isServiceUser) return null;

  return (
    <Popover position="bottom-end" shadow="md" withArrow trapFocus returnFocus>
      <Popover.Target>
        <UnstyledButton className={classes.trigger}>
          <span aria-hidden="true" className={classes.avatar}>
            {session.isLoggedIn ? (session.username.charAt(0) || '?').toUpperCase() : '?'}
          </span>
          <span className={classes.triggerLabel}>Account</span>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown data-testid="account-popover">
        {session.isLoggedIn ? (
          <Stack gap="sm">
            <Text size="sm">
              Logged in as
              <br />
              <strong data-testid="account-username">{session.username}</strong>
            </Text>
            <Button onClick={() => logout.mutate()} loading={logout.isPending}>
              Log Out
            </Button>
          </Stack>
        ) : (
          <Stack gap="sm">
            <Button component={Link} to={PATHS.login}>
              Sign In
            </Button>
            <Button component={Link} to={PATHS.signup} variant="outline">
              Create Account
            </Button>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
