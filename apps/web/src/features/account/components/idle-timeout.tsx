import { lazy, Suspense } from 'react';
import { useSession } from '../../../shared/lib/session';

// The watcher and its dialog load only for a logged-in applicant: a first visit to /login or
// /about does not pay for a modal it cannot show.
const IdleWatcher = lazy(() => import('./idle-watcher').then((m) => ({ default: m.IdleWatcher })));

/** docs/behaviour.md inactivity time-out; only a logged-in applicant has a session to protect. */
export function IdleTimeout() {
  const { isLoggedIn, isServiceUser } = useSession();
  if (!isLoggedIn || isServiceUser) return null;
  return (
    <Suspense fallback={null}>
      <IdleWatcher />
    </Suspense>
  );
}
