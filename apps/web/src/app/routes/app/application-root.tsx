import { useCallback, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { WEB_STATUSES, type ProfileResponse } from '@admissions/api-contract';
import { PATHS } from '../../../config/paths';
import { AccountPopover } from '../../../features/account/components/account-popover';
import { useAddAnother } from '../../../features/application/api/add-another';
import { useTemporaryAnswers } from '../../../features/application/api/get-temporary-answers';
import { useTabs } from '../../../features/application/api/tabs';
import { ApplicationChrome } from '../../../features/application/components/application-chrome';
import {
  ApplicationProvider,
  type ApplicationInitialState,
} from '../../../features/application/components/application-provider';
import { buildClientSnapshot } from '../../../features/application/lib/client-snapshot';
import { Frame } from '../../../features/layout/components/frame';
import { profileQueryOptions, useProfile } from '../../../features/profile/api/get-profile';
import { readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { getSession, isLoggedIn } from '../../../shared/lib/session';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { showErrorToast } from '../../../shared/ui/notify';

/** The form pages' root route (docs/screens-and-routes.md): loads the profile, builds the snapshot, shows the frame. */
export function Component() {
  // Decided on arrival: when a session ends, the code ending it navigates (with its message)
  // before dropping the marker, and this route must not race it with a bare redirect.
  const [arrivedLoggedIn] = useState(isLoggedIn);
  return arrivedLoggedIn ? <LoggedInApplication /> : <AnonymousApplication />;
}

function LoggedInApplication() {
  const profile = useProfile();
  const addAnother = useAddAnother(true);
  const tabs = useTabs(true);
  // A 401 has already sent the applicant to /login; other errors went to the boundary.
  if (!profile.data || !addAnother.data || !tabs.data) return <FullScreenLoader />;
  const snapshot = buildClientSnapshot(profile.data, getSession());
  // docs/screens-and-routes.md: a submitted application lives on /completion.
  if (snapshot.web_status === 'submitted') return <Navigate to={PATHS.completion} replace />;
  return (
    <ApplicationShell
      key={snapshot.username}
      initial={{
        answers: profile.data.answer,
        snapshot,
        addAnother: addAnother.data,
        tabs: tabs.data,
      }}
    />
  );
}

function AnonymousApplication() {
  const [params] = useSearchParams();
  const location = useLocation();
  const token = params.get('token');
  const temporary = useTemporaryAnswers(token);
  // An expired or unknown prefill link leaves an empty application and says so.
  const failure = temporary.isError ? temporary.error.message : undefined;
  useEffect(() => {
    if (failure) showErrorToast('Error', failure, { id: 'temporary-answers' });
  }, [failure]);
  if (token && temporary.isPending) return <FullScreenLoader />;
  // Answers carried back from an auth screen, then a prefill link's answers.
  const carried = readAuthLocationState(location.state).answers ?? {};
  return (
    <ApplicationShell
      initial={{
        answers: { ...carried, ...(temporary.data?.answer ?? {}) },
        snapshot: buildClientSnapshot(undefined, getSession()),
        addAnother: {},
        tabs: {},
      }}
    />
  );
}

function ApplicationShell({ initial }: { initial: ApplicationInitialState }) {
  const queryClient = useQueryClient();
  const markSubmitted = useCallback(() => {
    queryClient.setQueryData(profileQueryOptions().queryKey, (old: ProfileResponse | undefined) =>
      old
        ? {
            ...old,
            web_status: WEB_STATUSES.map((web_status) => ({
              web_status,
            })),
          }
        : old,
    );
  }, [queryClient]);
  return (
    <ApplicationProvider initial={initial} onSubmitted={markSubmitted}>
      <Frame headerActions={initial.snapshot.is_service_user ? undefined : <AccountPopover />}>
        <ApplicationChrome />
        <Outlet />
      </Frame>
    </ApplicationProvider>
  );
}
