import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PATHS, SERVICE_TOKEN_PARAM } from '../../config/paths';
import { refreshSession } from '../../shared/lib/session';

export function RootLayout() {
  const location = useLocation();
  // The marker cookie can appear or expire without the SPA doing anything; re-read on each move.
  useEffect(() => {
    refreshSession();
  }, [location.key]);
  // SPEC §2: a service token on any path opens the staff print view, before any other route
  // (the application root would otherwise load an applicant's profile).
  if (
    location.pathname !== PATHS.print &&
    new URLSearchParams(location.search).has(SERVICE_TOKEN_PARAM)
  ) {
    return <Navigate to={{ pathname: PATHS.print, search: location.search }} replace />;
  }
  return <Outlet />;
}
