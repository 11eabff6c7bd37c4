import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { refreshSession } from '../../shared/lib/session';

export function RootLayout() {
  const location = useLocation();
  // The marker cookie can appear or expire without the SPA doing anything; re-read on each move.
  useEffect(() => {
    refreshSession();
  }, [location.key]);
  return <Outlet />;
}
