import { Button, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '../../../config/paths';
import { useSession } from '../../../shared/lib/session';
import { useLogout } from '../api/logout';
import { AccountTriggerContent } from './account-trigger';
import classes from './account-popover.module.css';

/** The popover behind the header's Account button; loaded by AccountPopover. */
export function AccountMenu() {
  const session = useSession();
  const logout = useLogout();

  return (
    <Popover position="bottom-end" shadow="md" withArrow trapFocus returnFocus>
      <Popover.Target>
        <UnstyledButton className={classes.trigger}>
          <AccountTriggerContent session={session} />
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
