import type { QueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, type RouteObject, type createBrowserRouter } from 'react-router';
import { MESSAGES } from '@admissions/api-contract';
import { DEFAULT_ROUTE, PATHS } from '../config/paths';
import { setUnauthorizedHandler } from '../shared/api/session-events';
import { leaveSession } from '../shared/lib/leave-session';
import { registerRoutePreloads } from '../shared/lib/route-preload';
import { ErrorScreen } from '../shared/ui/error-screen';
import { FullScreenLoader } from '../shared/ui/full-screen-loader';
import { AuthLayout } from './routes/auth/auth-layout';
import { IdleLayout } from './routes/idle-layout';
import { RootLayout } from './routes/root-layout';
import type * as StaffPages from './routes/staff';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** docs/screens-and-routes.md: unknown paths go to the default route, keeping the query string (tokens ride on it). */
function RedirectToDefault() {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: DEFAULT_ROUTE, search, hash }} replace />;
}

// Page bundles load on demand per route (docs/api.md); the frame routes are small and eager.
const load = {
  login: () => import('./routes/auth/login'),
  signup: () => import('./routes/auth/signup'),
  confirm: () => import('./routes/auth/confirm'),
  forgot: () => import('./routes/auth/forgot'),
  reset: () => import('./routes/auth/reset'),
  applicationRoot: () => import('./routes/app/application-root'),
  about: () => import('./routes/app/about'),
  education: () => import('./routes/app/education'),
  finalSteps: () => import('./routes/app/final-steps'),
  completion: () => import('./routes/app/completion'),
  print: () => import('./routes/print'),
  recommend: () => import('./routes/recommend'),
  staff: (page: keyof typeof StaffPages) => () =>
    import('./routes/staff').then((m) => ({ Component: m[page] })),
};

registerRoutePreloads({
  [PATHS.login]: [load.login],
  [PATHS.signup]: [load.signup],
  [PATHS.confirm]: [load.confirm],
  [PATHS.forgot]: [load.forgot],
  [PATHS.reset]: [load.reset],
  [PATHS.about]: [load.applicationRoot, load.about],
  [PATHS.education]: [load.applicationRoot, load.education],
  [PATHS.finalSteps]: [load.applicationRoot, load.finalSteps],
  [PATHS.completion]: [load.completion],
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    // Shown while the first route's bundle loads.
    hydrateFallbackElement: <FullScreenLoader label="Loading" />,
    children: [
      {
        element: <IdleLayout />,
        children: [
          {
            element: <AuthLayout />,
            children: [
              { path: PATHS.login, lazy: load.login },
              { path: PATHS.signup, lazy: load.signup },
              { path: PATHS.confirm, lazy: load.confirm },
              { path: PATHS.forgot, lazy: load.forgot },
              { path: PATHS.reset, lazy: load.reset },
            ],
          },
          {
            path: '/',
            // The application feature (definition, engine, inputs) is most of the code: it loads
            // with the first form page, in parallel with that page's own module.
            lazy: load.applicationRoot,
            children: [
              { index: true, element: <RedirectToDefault /> },
              { path: PATHS.about, lazy: load.about },
              { path: PATHS.education, lazy: load.education },
              { path: PATHS.finalSteps, lazy: load.finalSteps },
            ],
          },
        ],
      },
      { path: PATHS.completion, lazy: load.completion },
      // Staff, read-only (docs/product.md): no frame, no idle time-out, its own bundle.
      { path: PATHS.print, lazy: load.print },
      // The recommender's page (issue #30): no account, no session, no idle time-out.
      { path: PATHS.recommend, lazy: load.recommend },
      // The staff area (issue #18): its pages share one bundle of their own.
      { path: PATHS.staffSignIn, lazy: load.staff('StaffSignIn') },
      { path: PATHS.staffSetup, lazy: load.staff('StaffSetup') },
      {
        path: PATHS.staff,
        lazy: load.staff('StaffLayout'),
        children: [
          { index: true, lazy: load.staff('StaffList') },
          { path: 'applications/:id', lazy: load.staff('StaffApplication') },
          { path: 'exports', lazy: load.staff('StaffExports') },
          { path: 'webhooks', lazy: load.staff('StaffWebhooks') },
          { path: '*', element: <Navigate to={PATHS.staff} replace /> },
        ],
      },
      { path: '*', element: <RedirectToDefault /> },
    ],
  },
];

/**
 * docs/errors.md: a 401 from the applicant API clears the cache and sends the applicant to /login with
 * the session message. Returns the disconnect function (tests build many apps).
 */
export function connectSessionHandling(router: AppRouter, queryClient: QueryClient): () => void {
  return setUnauthorizedHandler(() => {
    void leaveSession((to, options) => router.navigate(to, options), queryClient, {
      errorMessage: MESSAGES.sessionInvalid,
    });
  });
}
