import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PATHS, SERVICE_TOKEN_PARAM } from '../../config/paths';
import { preloadRoute } from '../../shared/lib/route-preload';
import { refreshSession } from '../../shared/lib/session';

const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart'] as const;

export function RootLayout() {
  const location = useLocation();
  // The marker cookie can appear or expire without the SPA doing anything; re-read on each move.
  useEffect(() => {
    refreshSession();
  }, [location.key]);
  // A link pointed at, focused or touched is about to be followed: fetch its page's code now.
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (link instanceof HTMLAnchorElement && link.origin === window.location.origin) {
        preloadRoute(link.pathname);
      }
    };
    for (const type of INTENT_EVENTS) {
      document.addEventListener(type, onIntent, { passive: true, capture: true });
    }
    return () => {
      for (const type of INTENT_EVENTS) {
        document.removeEventListener(type, onIntent, { capture: true });
      }
    };
  }, []);
  // docs/screens-and-routes.md: a service token on any path opens the staff print view, before any other route
  // (the application root would otherwise load an applicant's profile).
  if (
    location.pathname !== PATHS.print &&
    new URLSearchParams(location.search).has(SERVICE_TOKEN_PARAM)
  ) {
    return <Navigate to={{ pathname: PATHS.print, search: location.search }} replace />;
  }
  return <Outlet />;
}
