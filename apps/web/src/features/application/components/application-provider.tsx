import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { MESSAGES } from '@admissions/api-contract';
import type { Answers } from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { ServerError } from '../../../shared/api/errors';
import { registerBeforeLeave } from '../../../shared/lib/before-leave';
import { showErrorToast } from '../../../shared/ui/notify';
import { postWebStatus } from '../api/post-web-status';
import { saveLastPage } from '../api/save-last-page';
import { isPagePath, type ClientSnapshot } from '../lib/client-snapshot';
import { isRoundClosedError } from '../lib/round-closed-error';
import { createApplicationActions, type ApplicationStates } from '../state/application-actions';
import { ApplicationContext, type ApplicationHandle } from '../state/application-context';
import { useStoreSelector } from '../state/create-store';
import { AnswersState } from '../state/answers-state';
import { LayoutState } from '../state/layout-state';
import { StatusState } from '../state/status-state';
import { UploadStatuses } from '../state/upload-statuses';

export interface ApplicationInitialState {
  answers: Answers;
  snapshot: ClientSnapshot;
  addAnother: Readonly<Record<string, number>>;
  tabs: Readonly<Record<string, string>>;
}

/** The four concerns, wired so visibility and errors follow the tabs and the web status. */
function createStates(
  initial: ApplicationInitialState,
  closedMessage: string | null,
): ApplicationStates {
  const status = new StatusState(initial.snapshot, closedMessage);
  const layout = new LayoutState({ tabs: initial.tabs, addAnother: initial.addAnother });
  const answers = new AnswersState(initial.answers, {
    isLoggedIn: () => status.snapshot.is_logged_in,
    isValidating: () => status.snapshot.web_status === 'validating',
    getTabs: () => layout.tabs,
  });
  status.store.subscribe(() => answers.refresh());
  layout.store.subscribe(() => answers.refresh());
  // A closed round stops every save at once, whoever noticed it (the clock or a refused write).
  if (status.isClosed) answers.freeze();
  status.store.subscribe(() => {
    if (status.isClosed) answers.freeze();
  });
  return { answers, status, layout, uploads: new UploadStatuses() };
}

/**
 * Holds the application's state for the form pages (docs/behaviour.md) and runs what happens
 * without a click: starting the application, resuming the last page, reporting page changes,
 * and reading only once its round has closed.
 */
export function ApplicationProvider({
  initial,
  onSubmitted,
  closedMessage = null,
  children,
}: {
  initial: ApplicationInitialState;
  /** The app updates the cached profile so /completion knows (features do not share caches). */
  onSubmitted: () => void;
  /**
   * The round's ROUND_CLOSED message once its clock has passed the closing (the rounds feature's,
   * set by the app): from the first render when it has closed already, or when it closes.
   */
  closedMessage?: string | null;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const [states] = useState(() => createStates(initial, closedMessage));
  const { answers, status } = states;
  // The application's field state (issue #16): uncontrolled, so a keystroke stays in its input
  // and renders nothing here; validation runs packages/form's rules over all the answers.
  const form = useForm<Record<string, string>>({
    mode: 'uncontrolled',
    initialValues: { ...initial.answers },
    initialErrors: answers.initialErrors,
    validate: answers.validate,
    onValuesChange: answers.onValuesChange,
    // While validating every change re-validates the whole application (a rule may read
    // another field); outside it no field shows an error, so none needs clearing.
    clearInputErrorOnChange: false,
  });
  // Before the children render: they read the form's keys and values from this render.
  answers.attach(form);
  // Errors and field keys live in this component's state; the questions read them from the store.
  useLayoutEffect(() => answers.publishFormState());
  const handle = useMemo<ApplicationHandle>(
    () => ({
      ...states,
      actions: createApplicationActions(states, { navigate, queryClient, onSubmitted }),
    }),
    [states, navigate, queryClient, onSubmitted],
  );

  useEffect(() => () => answers.dispose(), [answers]);

  // The round closed while the page was open (issue #29): a 409's message, if one came first, stays.
  useEffect(() => {
    if (closedMessage !== null) status.close(closedMessage, false);
  }, [closedMessage, status]);

  // docs/behaviour.md: a logged-in applicant with no status starts the application.
  useEffect(() => {
    const { snapshot } = status;
    if (!snapshot.is_logged_in || snapshot.web_status !== null || status.isClosed) return;
    status.update({ web_status: 'started' });
    postWebStatus('started').catch((error: unknown) => {
      // The round closed as the page opened (the clock said open): read-only, not an error.
      if (isRoundClosedError(error)) status.close(error.message, true);
      else showErrorToast('Error', error instanceof Error ? error.message : MESSAGES.unexpected);
    });
  }, [status]);

  // docs/screens-and-routes.md: resume the saved last page once, then report every path change
  // while in progress.
  const resumed = useRef(false);
  const reported = useRef<string | null>(initial.snapshot.last_page);
  const webStatus = useStoreSelector(status.store, (view) => view.snapshot.web_status);
  useEffect(() => {
    const current = status.snapshot;
    if (!resumed.current) {
      resumed.current = true;
      if (
        current.is_logged_in &&
        !current.has_changed_page &&
        isPagePath(current.last_page) &&
        current.last_page !== pathname
      ) {
        void navigate(current.last_page, { replace: true });
        return;
      }
    }
    const inProgress = current.web_status === 'started' || current.web_status === 'validating';
    // A closed application takes no writes; reading its pages is not progress to remember.
    if (!current.is_logged_in || !inProgress || status.isClosed || !isPagePath(pathname)) return;
    if (reported.current === pathname) return;
    reported.current = pathname;
    status.update({ last_page: pathname });
    saveLastPage(pathname).catch(() => {
      // Best effort: the next page change reports again.
      reported.current = null;
    });
  }, [pathname, webStatus, navigate, status]);

  // A 409 ROUND_CLOSED: the round closed (issue #29), the application now reads only, with the
  // server's message. Any other 409 means it was submitted (another tab): show /completion.
  useEffect(() => {
    answers.saver.setFailureHandler((error) => {
      if (!(error instanceof ServerError) || error.status !== 409) return;
      if (isRoundClosedError(error)) {
        status.close(error.message, true);
        return;
      }
      status.update({ web_status: 'submitted' });
      onSubmitted();
      void navigate(PATHS.completion, { replace: true });
    });
  }, [answers, status, navigate, onSubmitted]);

  // An idle logout (or any other way out) saves what is being typed first.
  useEffect(() => registerBeforeLeave(answers.flush), [answers]);

  // Closing the tab mid-save would lose answers: ask the browser to warn.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (answers.saver.hasPending()) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [answers]);

  return <ApplicationContext value={handle}>{children}</ApplicationContext>;
}
