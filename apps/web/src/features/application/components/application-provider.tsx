import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@admissions/api-contract';
import {
  APPLICATION_DEFINITION,
  buildAnswerPatch,
  collectVisibleQuestionKeys,
  listHiddenAnswerKeys,
  listTabAnswersToClear,
  validateAnswers,
  type Answers,
  type ValidationErrors,
} from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { documentQueryKeys } from '../../../shared/api/documents';
import { ServerError } from '../../../shared/api/errors';
import { buildCarriedState } from '../../../shared/lib/auth-location-state';
import { registerBeforeLeave } from '../../../shared/lib/before-leave';
import { showErrorToast } from '../../../shared/ui/notify';
import { saveAddAnother } from '../api/add-another';
import { postValidations } from '../api/post-validations';
import { postWebStatus } from '../api/post-web-status';
import { saveLastPage } from '../api/save-last-page';
import { submitApplication } from '../api/submit-application';
import { saveTab } from '../api/tabs';
import { AnswerSaver, type SaveState } from '../lib/answer-saver';
import { isPagePath, type ClientSnapshot } from '../lib/client-snapshot';
import { getPartner } from '../../../shared/lib/partner';

/** How long typing may pause before the text is saved anyway (blur saves at once). */
export const TYPING_SAVE_DELAY_MS = 1500;

export type ChangeMode = 'now' | 'typing';

export interface ApplicationInitialState {
  answers: Answers;
  snapshot: ClientSnapshot;
  addAnother: Readonly<Record<string, number>>;
  tabs: Readonly<Record<string, string>>;
}

export interface ApplicationApi {
  answers: Answers;
  snapshot: ClientSnapshot;
  addAnother: Readonly<Record<string, number>>;
  tabs: Readonly<Record<string, string>>;
  /** Per-field errors: only while validating (docs/validation.md). */
  errors: ValidationErrors;
  visibleKeys: ReadonlySet<string>;
  saveState: SaveState;
  /** Bumped when the missing-information summary should take focus (after a failed submit). */
  summaryFocusRequest: number;
  setAnswer: (key: string, value: string, mode: ChangeMode) => void;
  /** Saves what is pending now (blur). */
  commit: () => void;
  retrySave: () => void;
  /** Switches a tab group; 'blocked' while the left tab's file converts or cannot be deleted. */
  chooseTab: (groupId: string, tabId: string, fromTabId: string) => Promise<'done' | 'blocked'>;
  reportUploadStatus: (key: string, status: string) => void;
  addBlock: (groupId: string, count: number) => Promise<void>;
  /** A step-navigation click (docs/screens-and-routes.md). */
  goToPage: (path: string) => Promise<void>;
  /** The save button: saves, then moves to `target` if given. */
  save: (target?: string) => Promise<void>;
  submit: (defaultRoute?: string) => Promise<void>;
}

const ApplicationContext = createContext<ApplicationApi | null>(null);

export function useApplication(): ApplicationApi {
  const value = use(ApplicationContext);
  if (!value) throw new Error('useApplication must be used inside <ApplicationProvider>.');
  return value;
}

function hasAnyAnswer(answers: Answers): boolean {
  return Object.values(answers).some((value) => value.trim() !== '');
}

function validate(answers: Answers, tabs: Readonly<Record<string, string>>): ValidationErrors {
  return validateAnswers(APPLICATION_DEFINITION, answers, {
    now: new Date(),
    partner: getPartner(),
    context: { tabs },
  });
}

export function ApplicationProvider({
  initial,
  onSubmitted,
  children,
}: {
  initial: ApplicationInitialState;
  /** The app updates the cached profile so /completion knows (features do not share caches). */
  onSubmitted: () => void;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [answers, setAnswers] = useState<Answers>(initial.answers);
  const [snapshot, setSnapshot] = useState<ClientSnapshot>(initial.snapshot);
  const [addAnother, setAddAnother] = useState(initial.addAnother);
  const [tabs, setTabs] = useState(initial.tabs);
  const [summaryFocusRequest, setSummaryFocusRequest] = useState(0);
  const [saver] = useState(() => new AnswerSaver());
  const saveState = useSyncExternalStore(saver.subscribe, saver.getState, saver.getState);

  // Async flows read the latest values, not the ones of the render that started them; every
  // setter below writes the ref first, then the state.
  const answersRef = useRef(answers);
  const snapshotRef = useRef(snapshot);
  const tabsRef = useRef(tabs);
  const typingTimer = useRef<number | undefined>(undefined);

  const loggedIn = snapshot.is_logged_in;
  const validating = snapshot.web_status === 'validating';
  const errors = useMemo(
    () => (validating ? validate(answers, tabs) : {}),
    [validating, answers, tabs],
  );
  const visibleKeys = useMemo(
    () => collectVisibleQuestionKeys(APPLICATION_DEFINITION, answers, { tabs }),
    [answers, tabs],
  );

  const updateSnapshot = useCallback((change: Partial<ClientSnapshot>) => {
    snapshotRef.current = { ...snapshotRef.current, ...change };
    setSnapshot(snapshotRef.current);
  }, []);

  const flush = useCallback(async (): Promise<boolean> => {
    window.clearTimeout(typingTimer.current);
    if (!snapshotRef.current.is_logged_in) return true;
    return saver.flush();
  }, [saver]);

  // docs/behaviour.md: a logged-in applicant with no status starts the application.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !loggedIn || snapshot.web_status !== null) return;
    started.current = true;
    updateSnapshot({ web_status: 'started' });
    postWebStatus('started').catch((error: unknown) => {
      showErrorToast('Error', error instanceof Error ? error.message : MESSAGES.unexpected);
    });
  }, [loggedIn, snapshot.web_status, updateSnapshot]);

  // docs/screens-and-routes.md: resume the saved last page once, then report every path change while in progress.
  const resumed = useRef(false);
  const reported = useRef<string | null>(initial.snapshot.last_page);
  useEffect(() => {
    const current = snapshotRef.current;
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
    if (!current.is_logged_in || !inProgress || !isPagePath(pathname)) return;
    if (reported.current === pathname) return;
    reported.current = pathname;
    updateSnapshot({ last_page: pathname });
    saveLastPage(pathname).catch(() => {
      // Best effort: the next page change reports again.
      reported.current = null;
    });
  }, [pathname, snapshot.web_status, navigate, updateSnapshot]);

  // A 409 means the application was submitted (another tab): it is frozen, so show /completion.
  useEffect(() => {
    saver.setFailureHandler((error) => {
      if (!(error instanceof ServerError) || error.status !== 409) return;
      updateSnapshot({ web_status: 'submitted' });
      onSubmitted();
      void navigate(PATHS.completion, { replace: true });
    });
  }, [saver, navigate, onSubmitted, updateSnapshot]);

  // An idle logout (or any other way out) saves what is being typed first.
  useEffect(() => registerBeforeLeave(flush), [flush]);

  // Closing the tab mid-save would lose answers: ask the browser to warn.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (saver.hasPending()) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [saver]);

  const setAnswer = useCallback(
    (key: string, value: string, mode: ChangeMode) => {
      const current = answersRef.current;
      const patch = buildAnswerPatch(APPLICATION_DEFINITION, key, value, {
        answers: current,
        now: new Date(),
        partner: getPartner(),
      });
      const next: Record<string, string> = { ...current, ...patch };
      // docs/behaviour.md: answers of questions this change hides are cleared, here and on the server.
      for (const hidden of listHiddenAnswerKeys(APPLICATION_DEFINITION, next, {
        tabs: tabsRef.current,
      })) {
        next[hidden] = '';
        patch[hidden] = '';
      }
      answersRef.current = next;
      setAnswers(next);
      if (!snapshotRef.current.is_logged_in) return;
      saver.queue(patch);
      window.clearTimeout(typingTimer.current);
      if (mode === 'now') void saver.flush();
      else typingTimer.current = window.setTimeout(() => void saver.flush(), TYPING_SAVE_DELAY_MS);
    },
    [saver],
  );

  const commit = useCallback(() => void flush(), [flush]);
  const retrySave = useCallback(() => void saver.flush(), [saver]);

  const goToSignup = useCallback(() => {
    void navigate(PATHS.signup, { state: buildCarriedState({ ...answersRef.current }) });
  }, [navigate]);

  /** docs/validation.md: in the validating state the errors are posted before they are shown. */
  const postCurrentValidations = useCallback(async (): Promise<ValidationErrors> => {
    const found = validate(answersRef.current, tabsRef.current);
    if (Object.keys(found).length > 0) await postValidations(found).catch(() => undefined);
    return found;
  }, []);

  const goToPage = useCallback(
    async (path: string) => {
      if (!snapshotRef.current.is_logged_in) {
        if (hasAnyAnswer(answersRef.current)) goToSignup();
        else void navigate(path, { replace: true });
        return;
      }
      await flush();
      if (snapshotRef.current.web_status === 'validating') await postCurrentValidations();
      updateSnapshot({ has_changed_page: true });
      void navigate(path, { replace: true });
    },
    [flush, goToSignup, navigate, postCurrentValidations, updateSnapshot],
  );

  const save = useCallback(
    async (target?: string) => {
      if (!snapshotRef.current.is_logged_in) {
        goToSignup();
        return;
      }
      const saved = await flush();
      if (!saved) {
        showErrorToast('Error', 'Your answers could not be saved. Please try again.');
        return;
      }
      if (!target) return;
      if (snapshotRef.current.web_status === 'validating') await postCurrentValidations();
      updateSnapshot({ has_changed_page: true });
      void navigate(target);
    },
    [flush, goToSignup, navigate, postCurrentValidations, updateSnapshot],
  );

  const submit = useCallback(
    async (defaultRoute?: string) => {
      if (!snapshotRef.current.is_logged_in) {
        goToSignup();
        return;
      }
      try {
        if (!(await flush())) {
          showErrorToast('Error', 'Your answers could not be saved. Please try again.');
          return;
        }
        if (snapshotRef.current.web_status !== 'validating') {
          updateSnapshot({ web_status: 'validating' });
          await postWebStatus('validating');
        }
        const found = await postCurrentValidations();
        if (Object.keys(found).length > 0) {
          setSummaryFocusRequest((n) => n + 1);
          if (defaultRoute) void navigate(defaultRoute);
          return;
        }
        await submitApplication();
        updateSnapshot({ web_status: 'submitted' });
        onSubmitted();
        void navigate(PATHS.completion, {
          replace: true,
          state: { successMessage: MESSAGES.submitted },
        });
      } catch (error) {
        if (error instanceof ServerError && error.status === 422) {
          setSummaryFocusRequest((n) => n + 1);
          return;
        }
        showErrorToast('Error', error instanceof Error ? error.message : MESSAGES.unexpected);
      }
    },
    [flush, goToSignup, navigate, onSubmitted, postCurrentValidations, updateSnapshot],
  );

  const uploadStatuses = useRef(new Map<string, string>());
  const reportUploadStatus = useCallback((key: string, status: string) => {
    uploadStatuses.current.set(key, status);
  }, []);

  const queryClient = useQueryClient();
  const chooseTab = useCallback(
    async (groupId: string, tabId: string, fromTabId: string): Promise<'done' | 'blocked'> => {
      const group = APPLICATION_DEFINITION.tabGroups.find((g) => g.id === groupId);
      const leaving = group?.tabs.find((t) => t.id === fromTabId)?.questionKey;
      const leavingStatus = leaving ? uploadStatuses.current.get(leaving) : undefined;
      // docs/behaviour.md: no switching while the file of the tab being left is still converting.
      if (leavingStatus === 'IN_PROGRESS' || leavingStatus === 'UNPROCESSED') return 'blocked';
      if (snapshotRef.current.is_logged_in) {
        try {
          // Pending keystrokes of the tab being left must not land after the server cleared it.
          await flush();
          await saveTab(groupId, tabId);
          // The server deleted the left tab's file: the upload widget's cached view of it is stale.
          await queryClient.invalidateQueries({ queryKey: documentQueryKeys.answers });
          if (leaving) {
            await queryClient.invalidateQueries({
              queryKey: documentQueryKeys.conversion(leaving),
            });
          }
        } catch (error) {
          // 409: the file of the tab being left could not be deleted.
          if (error instanceof ServerError && error.status === 409) return 'blocked';
          showErrorToast(
            `Error handling tabs for ${group?.label ?? groupId}`,
            error instanceof Error ? error.message : MESSAGES.unexpected,
          );
          return 'blocked';
        }
      }
      const cleared = listTabAnswersToClear(APPLICATION_DEFINITION, groupId, tabId);
      tabsRef.current = { ...tabsRef.current, [groupId]: tabId };
      setTabs(tabsRef.current);
      const next = { ...answersRef.current };
      for (const key of cleared) if (key in next) next[key] = '';
      answersRef.current = next;
      setAnswers(next);
      return 'done';
    },
    [flush, queryClient],
  );

  const addBlock = useCallback(async (groupId: string, count: number) => {
    if (!snapshotRef.current.is_logged_in) return;
    setAddAnother((current) => ({ ...current, [groupId]: count }));
    try {
      await saveAddAnother(groupId, count);
    } catch (error) {
      const group = APPLICATION_DEFINITION.repeatGroups.find((g) => g.id === groupId);
      showErrorToast(
        `Error adding another ${group?.buttonLabel.replace(/^Add Another /, '') ?? groupId}`,
        error instanceof Error ? error.message : MESSAGES.unexpected,
      );
    }
  }, []);

  const api = useMemo<ApplicationApi>(
    () => ({
      answers,
      snapshot,
      addAnother,
      tabs,
      errors,
      visibleKeys,
      saveState,
      summaryFocusRequest,
      setAnswer,
      commit,
      retrySave,
      chooseTab,
      reportUploadStatus,
      addBlock,
      goToPage,
      save,
      submit,
    }),
    [
      answers,
      snapshot,
      addAnother,
      tabs,
      errors,
      visibleKeys,
      saveState,
      summaryFocusRequest,
      setAnswer,
      commit,
      retrySave,
      chooseTab,
      reportUploadStatus,
      addBlock,
      goToPage,
      save,
      submit,
    ],
  );

  return <ApplicationContext value={api}>{children}</ApplicationContext>;
}
