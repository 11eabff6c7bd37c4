import { useState } from 'react';
import { Navigate, Outlet, useOutletContext } from 'react-router';
import type { ProfileResponse } from '@admissions/api-contract';
import { PATHS } from '../../../config/paths';
import { AccountPopover } from '../../../features/account/components/account-popover';
import { Frame } from '../../../features/layout/components/frame';
import { useProfile } from '../../../features/profile/api/get-profile';
import { isLoggedIn } from '../../../shared/lib/session';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';

export interface ApplicationContext {
  profile: ProfileResponse;
}

/** The form pages' root route (SPEC §2): loads the profile, then renders the shared frame. */
export function ApplicationRoot() {
  // Decided on arrival: when a session ends, the code ending it navigates (with its message)
  // before dropping the marker, and this route must not race it with a bare redirect.
  const [arrivedLoggedIn] = useState(isLoggedIn);
  // Until the application pages support anonymous visitors (issue 4), they need an account.
  if (!arrivedLoggedIn) return <Navigate to={PATHS.login} replace />;
  return <LoadedApplication />;
}

function LoadedApplication() {
  const profile = useProfile();
  // A 401 has already sent the applicant to /login; other errors went to the boundary.
  if (!profile.data) return <FullScreenLoader />;
  const context: ApplicationContext = { profile: profile.data };
  return (
    <Frame headerActions={<AccountPopover />}>
      <Outlet context={context} />
    </Frame>
  );
}

export function useApplicationContext(): ApplicationContext {
  return useOutletContext<ApplicationContext>();
}
