import { Outlet } from 'react-router';
import { IdleTimeout } from '../../features/account/components/idle-timeout';

/** docs/screens-and-routes.md: the auth pages and the form pages run inside the inactivity time-out. */
export function IdleLayout() {
  return (
    <>
      <IdleTimeout />
      <Outlet />
    </>
  );
}
