// What the buttons, step links, tabs and add-another buttons do. Actions read the stores when they
// run (never a render's copy), so an async flow sees the latest answers and status.
import type { NavigateFunction } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@admissions/api-contract';
import {
  APPLICATION_DEFINITION,
  listTabAnswersToClear,
  type ValidationErrors,
} from '@admissions/form';
import { PATHS } from '../../../config/paths';
import { ServerError } from '../../../shared/api/errors';
import { buildCarriedState } from '../../../shared/lib/auth-location-state';
import { showErrorToast } from '../../../shared/ui/notify';
import { saveAddAnother } from '../api/add-another';
import { postValidations } from '../api/post-validations';
import { postWebStatus } from '../api/post-web-status';
import { submitApplication } from '../api/submit-application';
import { saveTab } from '../api/tabs';
import { validateApplication, type AnswersState, type ChangeMode } from './answers-state';
import { isRoundClosedError } from '../lib/round-closed-error';
import type { LayoutState } from './layout-state';
import type { StatusState } from './status-state';
import { documentQueryKeys } from '../../../shared/api/document-query-keys';
import type { UploadStatuses } from './upload-statuses';

export interface ApplicationStates {
  answers: AnswersState;
  status: StatusState;
  layout: LayoutState;
  uploads: UploadStatuses;
}

export interface ApplicationDeps {
  navigate: NavigateFunction;
  queryClient: QueryClient;
  /** The app updates the cached profile so /completion knows (features do not share caches). */
  onSubmitted: () => void;
}

export interface ApplicationActions {
  /** A value its own component already shows (a lookup's text, an upload). */
  setAnswer: (key: string, value: string, mode: ChangeMode) => void;
  /** Values set from outside their inputs (a picked record fills the address). */
  fillAnswers: (entries: readonly (readonly [string, string])[], mode: ChangeMode) => void;
  /** Saves what is pending now (blur). */
  commit: () => void;
  retrySave: () => void;
  /**
   * Switches a tab group; 'blocked' while the left tab's file converts or cannot be deleted,
   * 'closed' when the round has closed (the application reads only).
   */
  chooseTab: (
    groupId: string,
    tabId: string,
    fromTabId: string,
  ) => Promise<'done' | 'blocked' | 'closed'>;
  reportUploadStatus: (key: string, status: string) => void;
  addBlock: (groupId: string, count: number) => Promise<void>;
  /** A step-navigation click (docs/screens-and-routes.md). */
  goToPage: (path: string) => Promise<void>;
  /** The save button: saves, then moves to `target` if given. */
  save: (target?: string) => Promise<void>;
  submit: (defaultRoute?: string) => Promise<void>;
}

const NOT_SAVED = 'Your answers could not be saved. Please try again.';

function hasAnyAnswer(answers: Readonly<Record<string, string>>): boolean {
  return Object.values(answers).some((value) => value.trim() !== '');
}

export function createApplicationActions(
  { answers, status, layout, uploads }: ApplicationStates,
  { navigate, queryClient, onSubmitted }: ApplicationDeps,
): ApplicationActions {
  const isLoggedIn = () => status.snapshot.is_logged_in;
  // A closed round's application reads only (issue #29): its buttons are disabled, and an action
  // that still runs (a click racing the closing) sends nothing.
  const isClosed = () => status.isClosed;

  /** A write refused with ROUND_CLOSED makes the application read-only, with the server's words. */
  const closeOnRoundClosed = (error: unknown): boolean => {
    if (!isRoundClosedError(error)) return false;
    status.close(error.message, true);
    return true;
  };

  const goToSignup = () => {
    void navigate(PATHS.signup, { state: buildCarriedState({ ...answers.answers }) });
  };

  /** docs/validation.md: in the validating state the errors are posted before they are shown. */
  const postCurrentValidations = async (): Promise<ValidationErrors> => {
    const found = validateApplication(answers.answers, layout.tabs);
    if (Object.keys(found).length > 0) await postValidations(found).catch(() => undefined);
    return found;
  };

  const goToPage = async (path: string) => {
    if (!isLoggedIn()) {
      if (hasAnyAnswer(answers.answers)) goToSignup();
      else void navigate(path, { replace: true });
      return;
    }
    await answers.flush();
    if (status.snapshot.web_status === 'validating' && !isClosed()) await postCurrentValidations();
    status.update({ has_changed_page: true });
    void navigate(path, { replace: true });
  };

  const save = async (target?: string) => {
    if (!isLoggedIn()) {
      goToSignup();
      return;
    }
    if (isClosed()) return;
    if (!(await answers.flush())) {
      showErrorToast('Error', NOT_SAVED);
      return;
    }
    if (!target) return;
    if (status.snapshot.web_status === 'validating') await postCurrentValidations();
    status.update({ has_changed_page: true });
    void navigate(target);
  };

  const submit = async (defaultRoute?: string) => {
    if (!isLoggedIn()) {
      goToSignup();
      return;
    }
    if (isClosed()) return;
    try {
      if (!(await answers.flush())) {
        showErrorToast('Error', NOT_SAVED);
        return;
      }
      if (status.snapshot.web_status !== 'validating') {
        status.update({ web_status: 'validating' });
        await postWebStatus('validating');
      }
      const found = await postCurrentValidations();
      if (Object.keys(found).length > 0) {
        status.requestSummaryFocus();
        if (defaultRoute) void navigate(defaultRoute);
        return;
      }
      await submitApplication();
      status.update({ web_status: 'submitted' });
      onSubmitted();
      void navigate(PATHS.completion, {
        replace: true,
        state: { successMessage: MESSAGES.submitted },
      });
    } catch (error) {
      if (error instanceof ServerError && error.status === 422) {
        status.requestSummaryFocus();
        return;
      }
      if (closeOnRoundClosed(error)) return;
      showErrorToast('Error', error instanceof Error ? error.message : MESSAGES.unexpected);
    }
  };

  const chooseTab = async (
    groupId: string,
    tabId: string,
    fromTabId: string,
  ): Promise<'done' | 'blocked' | 'closed'> => {
    const group = APPLICATION_DEFINITION.tabGroups.find((g) => g.id === groupId);
    const leaving = group?.tabs.find((t) => t.id === fromTabId)?.questionKey;
    // docs/behaviour.md: no switching while the file of the tab being left is still converting.
    if (isClosed()) return 'closed';
    if (uploads.isConverting(leaving)) return 'blocked';
    if (isLoggedIn()) {
      try {
        // Pending keystrokes of the tab being left must not land after the server cleared it.
        await answers.flush();
        await saveTab(groupId, tabId);
        // The server deleted the left tab's file: the upload widget's cached view of it is stale.
        await queryClient.invalidateQueries({ queryKey: documentQueryKeys.answers });
        if (leaving) {
          await queryClient.invalidateQueries({ queryKey: documentQueryKeys.conversion(leaving) });
        }
      } catch (error) {
        if (closeOnRoundClosed(error)) return 'closed';
        // 409: the file of the tab being left could not be deleted.
        if (error instanceof ServerError && error.status === 409) return 'blocked';
        showErrorToast(
          `Error handling tabs for ${group?.label ?? groupId}`,
          error instanceof Error ? error.message : MESSAGES.unexpected,
        );
        return 'blocked';
      }
    }
    layout.chooseTab(groupId, tabId);
    answers.clearLocally(listTabAnswersToClear(APPLICATION_DEFINITION, groupId, tabId));
    return 'done';
  };

  const addBlock = async (groupId: string, count: number) => {
    if (!isLoggedIn() || isClosed()) return;
    layout.setBlockCount(groupId, count);
    try {
      await saveAddAnother(groupId, count);
    } catch (error) {
      if (closeOnRoundClosed(error)) return;
      const group = APPLICATION_DEFINITION.repeatGroups.find((g) => g.id === groupId);
      showErrorToast(
        `Error adding another ${group?.buttonLabel.replace(/^Add Another /, '') ?? groupId}`,
        error instanceof Error ? error.message : MESSAGES.unexpected,
      );
    }
  };

  return {
    setAnswer: (key, value, mode) => answers.setAnswer(key, value, mode),
    fillAnswers: (entries, mode) => answers.fillAnswers(entries, mode),
    commit: () => void answers.flush(),
    retrySave: () => void answers.saver.flush(),
    chooseTab,
    reportUploadStatus: uploads.report,
    addBlock,
    goToPage,
    save,
    submit,
  };
}
