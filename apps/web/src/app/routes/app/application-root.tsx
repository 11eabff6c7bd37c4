import { useCallback, useState, type ReactNode } from 'react';
import { Alert, Text } from '@mantine/core';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, WEB_STATUSES, type ProfileResponse } from '@admissions/api-contract';
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
import {
  DeadlineBanner,
  RoundPickerSlot,
  useApplications,
  useRoundClosedMessage,
  type ApplicationsView,
} from '../../../features/rounds';
import { readAuthLocationState } from '../../../shared/lib/auth-location-state';
import { getSession, isLoggedIn } from '../../../shared/lib/session';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';

const PREFILL_LINK_FAILED = {
  title: 'This link did not fill in the form',
  whatNow: 'Ask the admissions office for a new link, or fill in the form yourself.',
} as const;

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
  // Issue #29: the rounds decide whether the application can still change. A failed call leaves
  // it as it was, without a deadline banner or a picker (useApplications).
  const applications = useApplications();
  const rounds = applications.data;
  const closedMessage = useRoundClosedMessage(rounds);
  // A 401 has already sent the applicant to /login; other errors went to the boundary.
  if (!profile.data || !addAnother.data || !tabs.data || applications.isPending) {
    return <FullScreenLoader />;
  }
  const snapshot = buildClientSnapshot(profile.data, getSession());
  // docs/screens-and-routes.md: a submitted application lives on /completion.
  if (snapshot.web_status === 'submitted') return <Navigate to={PATHS.completion} replace />;
  return (
    <ApplicationShell
      // Another round's application (the round picker) is another form: a fresh one.
      key={`${snapshot.username} ${rounds?.current ?? ''}`}
      initial={{
        answers: profile.data.answer,
        snapshot,
        addAnother: addAnother.data,
        tabs: tabs.data,
      }}
      closedMessage={closedMessage}
      rounds={rounds}
    />
  );
}

function AnonymousApplication() {
  const [params] = useSearchParams();
  const location = useLocation();
  const token = params.get('token');
  // `?token=` with nothing after it is a link cut short: no request, the same message.
  const temporary = useTemporaryAnswers(token || null);
  const failure =
    token === '' ? MESSAGES.temporaryAnswersGone : temporary.isError ? temporary.error.message : '';
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
      notice={failure && <PrefillLinkFailed message={failure} />}
    />
  );
}

/**
 * An expired or unknown prefill link leaves an empty application and says so on the page, with
 * what to do: a toast alone faded before a newcomer had read it, leaving an empty form unexplained.
 */
function PrefillLinkFailed({ message }: { message: string }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Alert
      color="red"
      role="alert"
      mb="md"
      title={PREFILL_LINK_FAILED.title}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => setOpen(false)}
    >
      <Text size="sm">{message}</Text>
      <Text size="sm">{PREFILL_LINK_FAILED.whatNow}</Text>
    </Alert>
  );
}

function ApplicationShell({
  initial,
  notice,
  closedMessage = null,
  rounds,
}: {
  initial: ApplicationInitialState;
  /** Shown above the page's form (a prefill link that did not work). */
  notice?: ReactNode;
  /** The round's closing message once the rounds' clock has passed it (issue #29). */
  closedMessage?: string | null;
  /** The applicant's applications and the rounds; none for a visitor. */
  rounds?: ApplicationsView | undefined;
}) {
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
    <ApplicationProvider
      initial={initial}
      onSubmitted={markSubmitted}
      closedMessage={closedMessage}
    >
      <Frame headerActions={initial.snapshot.is_service_user ? undefined : <AccountPopover />}>
        <ApplicationChrome
          deadline={rounds && <DeadlineBanner view={rounds} />}
          // A new cycle: the closed round's application reads only, another round may be open.
          whenClosed={rounds && <RoundPickerSlot />}
        />
        {notice}
        <Outlet />
      </Frame>
    </ApplicationProvider>
  );
}
