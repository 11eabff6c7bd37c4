// The application's state by concern, each read through selector hooks: a component re-renders
// when the part it selects changes, never because something else in the application did.
import { createContext, use, useSyncExternalStore } from 'react';
import type { ApplicationActions, ApplicationStates } from './application-actions';
import type { AnswersView } from './answers-state';
import { useStoreSelector } from './create-store';
import type { LayoutView } from './layout-state';
import type { StatusView } from './status-state';
import type { SaveState } from '../lib/answer-saver';

/** Created once per application; the value never changes, so the context re-renders no one. */
export interface ApplicationHandle extends ApplicationStates {
  actions: ApplicationActions;
}

export const ApplicationContext = createContext<ApplicationHandle | null>(null);

function useHandle(): ApplicationHandle {
  const value = use(ApplicationContext);
  if (!value) throw new Error('Application state is read inside <ApplicationProvider> only.');
  return value;
}

export function useApplicationActions(): ApplicationActions {
  return useHandle().actions;
}

/** Answers, their visibility and errors; e.g. `useAnswersSelector((v) => v.answers.city)`. */
export function useAnswersSelector<S>(
  select: (view: AnswersView) => S,
  isEqual?: (a: S, b: S) => boolean,
): S {
  return useStoreSelector(useHandle().answers.store, select, isEqual);
}

/** The application's form binding: `bind` an uncontrolled input, `fieldKey` for its element key. */
export function useAnswersForm(): Pick<ApplicationStates['answers'], 'bind' | 'fieldKey'> {
  return useHandle().answers;
}

/**
 * One answer as it is now, re-rendering when it changes (Mantine's `useWatchValue`): for the few
 * inputs that show their value elsewhere than in the input (a character counter, a lookup).
 */
export function useAnswerValue(key: string): string {
  const form = useHandle().answers.form;
  return (form.useWatchValue(key) as string | undefined) ?? '';
}

/** The latest answers, for event handlers (reading them does not subscribe). */
export function useAnswersReader(): () => AnswersView['answers'] {
  const { answers } = useHandle();
  return () => answers.answers;
}

export function useStatusSelector<S>(
  select: (view: StatusView) => S,
  isEqual?: (a: S, b: S) => boolean,
): S {
  return useStoreSelector(useHandle().status.store, select, isEqual);
}

export function useLayoutSelector<S>(
  select: (view: LayoutView) => S,
  isEqual?: (a: S, b: S) => boolean,
): S {
  return useStoreSelector(useHandle().layout.store, select, isEqual);
}

export function useSaveState(): SaveState {
  const { saver } = useHandle().answers;
  return useSyncExternalStore(saver.subscribe, saver.getState, saver.getState);
}

/** The message of a closed round while the application reads only; null while it can change. */
export function useClosedMessage(): string | null {
  return useStatusSelector((view) => view.closed?.message ?? null);
}

export function useIsLoggedIn(): boolean {
  return useStatusSelector((view) => view.snapshot.is_logged_in);
}
