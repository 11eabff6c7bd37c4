// Answers and saving: the answers, what they make visible, their errors while validating, and the
// queue that saves them. One change updates this store once; components select their part.
import {
  APPLICATION_DEFINITION,
  buildAnswerPatch,
  collectVisibleQuestionKeys,
  listHiddenAnswerKeys,
  validateAnswers,
  type Answers,
  type ValidationErrors,
} from '@admissions/form';
import { getPartner } from '../../../shared/lib/partner';
import { AnswerSaver } from '../lib/answer-saver';
import { createStore, type Store } from './create-store';

/** How long typing may pause before the text is saved anyway (blur saves at once). */
export const TYPING_SAVE_DELAY_MS = 1500;

export type ChangeMode = 'now' | 'typing';

export interface AnswersView {
  answers: Answers;
  visibleKeys: ReadonlySet<string>;
  /** Per-field errors: only while validating (docs/validation.md). */
  errors: ValidationErrors;
}

/** What the answers read from the other concerns. */
export interface AnswersContext {
  isLoggedIn: () => boolean;
  isValidating: () => boolean;
  getTabs: () => Readonly<Record<string, string>>;
}

const NO_ERRORS: ValidationErrors = {};

export function validateApplication(
  answers: Answers,
  tabs: Readonly<Record<string, string>>,
): ValidationErrors {
  return validateAnswers(APPLICATION_DEFINITION, answers, {
    now: new Date(),
    partner: getPartner(),
    context: { tabs },
  });
}

export class AnswersState {
  readonly store: Store<AnswersView>;
  readonly saver: AnswerSaver;
  private typingTimer: number | undefined;
  /** The inputs the derived parts were computed from; unchanged inputs keep them. */
  private derivedFrom: { tabs: unknown; validating: boolean } | undefined;

  constructor(
    initial: Answers,
    private readonly context: AnswersContext,
    saver = new AnswerSaver(),
  ) {
    this.saver = saver;
    this.store = createStore(this.derive(initial));
  }

  get answers(): Answers {
    return this.store.get().answers;
  }

  private derive(answers: Answers): AnswersView {
    const tabs = this.context.getTabs();
    const validating = this.context.isValidating();
    this.derivedFrom = { tabs, validating };
    return {
      answers,
      visibleKeys: collectVisibleQuestionKeys(APPLICATION_DEFINITION, answers, { tabs }),
      errors: validating ? validateApplication(answers, tabs) : NO_ERRORS,
    };
  }

  /** The tabs or the web status changed: visibility and errors follow. */
  refresh(): void {
    const from = this.derivedFrom;
    if (from?.tabs === this.context.getTabs() && from.validating === this.context.isValidating()) {
      return;
    }
    this.store.set(this.derive(this.answers));
  }

  setAnswer(key: string, value: string, mode: ChangeMode): void {
    const current = this.answers;
    const patch = buildAnswerPatch(APPLICATION_DEFINITION, key, value, {
      answers: current,
      now: new Date(),
      partner: getPartner(),
    });
    const next: Record<string, string> = { ...current, ...patch };
    // docs/behaviour.md: answers of questions this change hides are cleared, here and on the server.
    for (const hidden of listHiddenAnswerKeys(APPLICATION_DEFINITION, next, {
      tabs: this.context.getTabs(),
    })) {
      next[hidden] = '';
      patch[hidden] = '';
    }
    this.store.set(this.derive(next));
    if (!this.context.isLoggedIn()) return;
    this.saver.queue(patch);
    window.clearTimeout(this.typingTimer);
    if (mode === 'now') void this.saver.flush();
    else this.typingTimer = window.setTimeout(() => void this.saver.flush(), TYPING_SAVE_DELAY_MS);
  }

  /** Empties answers here only (the server cleared them itself, e.g. on a tab switch). */
  clearLocally(keys: readonly string[]): void {
    const next = { ...this.answers };
    for (const key of keys) if (key in next) next[key] = '';
    this.store.set(this.derive(next));
  }

  /** Saves what is pending now; true once everything typed so far is on the server. */
  flush = async (): Promise<boolean> => {
    window.clearTimeout(this.typingTimer);
    if (!this.context.isLoggedIn()) return true;
    return this.saver.flush();
  };

  dispose(): void {
    window.clearTimeout(this.typingTimer);
  }
}
