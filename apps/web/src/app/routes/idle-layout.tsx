import { Outlet } from 'react-router';
import { IdleTimeout } from '../../features/account/components/idle-timeout';

/** SPEC §2: the auth pages and the form pages run inside the inactivity time-out. */
export function IdleLayout() {
  return (
    <>
      <IdleTimeout />
      <Outlet />
    </>
  );
}
