import { useEffect, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  Navigate,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useOutletContext,
} from 'react-router';
import { STAFF_MESSAGES, type StaffMeResponse } from '@admissions/api-contract';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import {
  setStaffUnauthorizedHandler,
  staffKeys,
  useStaffMe,
  useStaffSignOut,
} from '../api/staff-api';
import { STAFF_PATHS, type SignInState } from '../lib/staff-paths';
import classes from './staff.module.css';

export const STAFF_TITLE = 'Admissions staff';

/**
 * Every signed-in staff page: the header (the area's name, Applications, Exports and Webhooks for
 * exporters, who is signed in, Sign out) and the page. Without a staff session, the sign-in page.
 */
export function StaffLayout() {
  const me = useStaffMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useStaffSignOut();

  useEffect(() => {
    setStaffUnauthorizedHandler((message) => {
      queryClient.removeQueries({ queryKey: staffKeys.all });
      queryClient.setQueryData(staffKeys.me, null);
      const state: SignInState = { message, next: location.pathname + location.search };
      void navigate(STAFF_PATHS.signIn, { state, replace: true });
    });
    return () => setStaffUnauthorizedHandler(null);
  }, [queryClient, navigate, location.pathname, location.search]);

  if (me.isPending) return <FullScreenLoader label="Loading" />;
  if (me.isError) throw me.error;
  if (!me.data) {
    const state: SignInState = { next: location.pathname + location.search };
    // The identity provider's refusal comes back on /staff?sign_in_error=…: the sign-in page shows it.
    return (
      <Navigate
        to={{ pathname: STAFF_PATHS.signIn, search: location.search }}
        state={state}
        replace
      />
    );
  }

  return (
    <>
      {/* Not a fixed-height app shell: on a phone the header wraps onto more lines. */}
      <header className={classes.header}>
        <Group px="md" py="xs" justify="space-between" wrap="wrap" gap="xs">
          <Group gap="lg" wrap="wrap">
            <Text fw={700} size="lg" component="p">
              {STAFF_TITLE}
            </Text>
            <nav aria-label="Staff">
              <Group gap="md" component="ul" className={classes.navList}>
                <NavItem to={STAFF_PATHS.list} end>
                  Applications
                </NavItem>
                {me.data.role === 'exporter' && (
                  <>
                    <NavItem to={STAFF_PATHS.exports}>Exports</NavItem>
                    <NavItem to={STAFF_PATHS.webhooks}>Webhooks</NavItem>
                  </>
                )}
              </Group>
            </nav>
          </Group>
          <Group gap="sm" wrap="wrap">
            <Text size="sm" c="dimmed" data-testid="staff-email">
              <VisuallyHidden>Signed in as </VisuallyHidden>
              {me.data.email} ({me.data.role})
            </Text>
            <Button
              variant="default"
              size="xs"
              loading={signOut.isPending}
              onClick={() =>
                signOut.mutate(undefined, {
                  onSettled: () => void navigate(STAFF_PATHS.signIn, { replace: true }),
                })
              }
            >
              Sign out
            </Button>
          </Group>
        </Group>
      </header>
      <Container size="xl" py="md" component="main">
        <Outlet context={me.data} />
      </Container>
    </>
  );
}

function NavItem({ to, end, children }: { to: string; end?: boolean; children: ReactNode }) {
  return (
    <li>
      <Anchor component={NavLink} to={to} end={end} className={classes.navLink}>
        {children}
      </Anchor>
    </li>
  );
}

/** A page's heading and document title in one. */
export function StaffPageTitle({ children, title }: { children: ReactNode; title: string }) {
  return (
    <>
      <title>{`${title} | ${STAFF_TITLE}`}</title>
      <Title order={1} size="h2" mb="md">
        {children}
      </Title>
    </>
  );
}

/**
 * A page for exporters only (Exports, Webhooks): its title, then the page, or for any other role
 * the alert the server's 403 would give (the server refuses them anyway).
 */
export function ExporterPage({ title, children }: { title: string; children: ReactNode }) {
  const me = useOutletContext<StaffMeResponse>();
  const allowed = me.role === 'exporter';
  return (
    <Stack gap={allowed ? 'lg' : 'md'}>
      <StaffPageTitle title={title}>{title}</StaffPageTitle>
      {allowed ? (
        children
      ) : (
        <Alert color="red" role="alert">
          {STAFF_MESSAGES.forbidden}
        </Alert>
      )}
    </Stack>
  );
}
