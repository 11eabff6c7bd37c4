// Answers and saving. The answers are the field state of a @mantine/form form in uncontrolled mode
// (created by ApplicationProvider): the browser's inputs hold what is typed, the form holds the
// values and the errors. This class is the application's side of that form: its validate rule
// (packages/form), what a change clears and makes visible (onValuesChange), the queue that saves
// the changes, and a store the components select their part from, so that a change re-renders
// only the questions whose part changed.
import type { FormErrors, UseFormReturnType } from '@mantine/form';
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

/** The application's form: one string answer per question key (`useForm` in ApplicationProvider). */
export type AnswersForm = UseFormReturnType<Record<string, string>>;

export interface AnswersView {
  /** The form's values after the last change. */
  answers: Answers;
  visibleKeys: ReadonlySet<string>;
  /** The form's errors as message lists: set only while validating (docs/validation.md). */
  errors: ValidationErrors;
  /** Counts the form's renders: a field's `form.key` can only change with one. */
  formRenders: number;
}

/** What an uncontrolled input spreads: Mantine's value to start from and its change handler. */
export interface FieldProps {
  defaultValue: string;
  /** An input's change event, or the value itself (a formatted phone number, a checkbox's). */
  onChange: (input: unknown) => void;
}

/** What the answers read from the other concerns. */
export interface AnswersContext {
  isLoggedIn: () => boolean;
  isValidating: () => boolean;
  getTabs: () => Readonly<Record<string, string>>;
}

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

/** Mantine keeps any React node per field; ours are always the rule's message lists. */
function readMessageLists(errors: FormErrors): ValidationErrors {
  const lists: ValidationErrors = {};
  for (const [key, error] of Object.entries(errors)) {
    if (Array.isArray(error)) lists[key] = error.filter((m): m is string => typeof m === 'string');
    else if (typeof error === 'string') lists[key] = [error];
  }
  return lists;
}

export class AnswersState {
  readonly store: Store<AnswersView>;
  readonly saver: AnswerSaver;
  /** The errors the application opens with (already validating): the form's initialErrors. */
  readonly initialErrors: ValidationErrors;
  private current: AnswersForm | undefined;
  private typingTimer: number | undefined;
  /** Nesting of onValuesChange: a change's own clears come back through it before it returns. */
  private changeDepth = 0;
  /** Set while answers are emptied here only (the server already did): nothing to save. */
  private clearingLocally = false;
  private publishedErrors: FormErrors | undefined;
  /** The inputs visibility and errors were computed from; unchanged inputs keep them. */
  private derivedFrom: { tabs: unknown; validating: boolean };

  constructor(
    initial: Answers,
    private readonly context: AnswersContext,
    saver = new AnswerSaver(),
  ) {
    this.saver = saver;
    const tabs = context.getTabs();
    const validating = context.isValidating();
    this.derivedFrom = { tabs, validating };
    this.initialErrors = validating ? validateApplication(initial, tabs) : {};
    this.store = createStore<AnswersView>({
      answers: initial,
      visibleKeys: collectVisibleQuestionKeys(APPLICATION_DEFINITION, initial, { tabs }),
      errors: this.initialErrors,
      formRenders: 0,
    });
  }

  /**
   * The form as rendered last (ApplicationProvider calls this on each render, before its children
   * render): `key` and `getInputProps` read the state of the render that created them.
   */
  attach(form: AnswersForm): void {
    this.current = form;
  }

  /** The form as rendered last. */
  get form(): AnswersForm {
    if (!this.current) throw new Error('The answers form is attached by <ApplicationProvider>.');
    return this.current;
  }

  /** Every answer as it is now. */
  get answers(): Answers {
    return this.current?.getValues() ?? this.store.get().answers;
  }

  /** The form's validate rule: the application's rules from packages/form, all fields at once. */
  readonly validate = (values: Answers): FormErrors =>
    validateApplication(values, this.context.getTabs());

  /**
   * The form's onValuesChange: a changed answer clears the answers that depended on it and those
   * of the questions it hides (docs/behaviour.md: here and on the server), and is queued for
   * saving; visibility follows once the last of those changes is in.
   */
  readonly onValuesChange = (values: Answers, previous: Answers): void => {
    const changed = Object.keys(values).filter((key) => values[key] !== previous[key]);
    if (changed.length === 0) return;
    this.changeDepth += 1;
    try {
      if (!this.clearingLocally) this.followChange(changed, values, previous);
    } finally {
      this.changeDepth -= 1;
    }
    if (this.changeDepth === 0) this.updateView();
  };

  private followChange(changed: readonly string[], values: Answers, previous: Answers): void {
    if (this.context.isLoggedIn()) {
      this.saver.queue(Object.fromEntries(changed.map((key) => [key, values[key] ?? ''])));
    }
    const follow: Record<string, string> = {};
    for (const key of changed) {
      const patch = buildAnswerPatch(APPLICATION_DEFINITION, key, values[key] ?? '', {
        answers: previous,
        now: new Date(),
        partner: getPartner(),
      });
      for (const [k, v] of Object.entries(patch)) {
        if (k !== key && (values[k] ?? '') !== v) follow[k] = v;
      }
    }
    for (const hidden of listHiddenAnswerKeys(
      APPLICATION_DEFINITION,
      { ...values, ...follow },
      { tabs: this.context.getTabs() },
    )) {
      follow[hidden] = '';
    }
    // Set from outside their inputs, so each of those inputs is remounted with its new value.
    for (const [key, value] of Object.entries(follow)) this.form.setFieldValue(key, value);
  }

  private updateView(): void {
    const answers = this.form.getValues();
    const view = this.store.get();
    this.store.set({
      ...view,
      answers,
      visibleKeys: collectVisibleQuestionKeys(APPLICATION_DEFINITION, answers, {
        tabs: this.context.getTabs(),
      }),
    });
  }

  /**
   * After the provider rendered: the form's errors (and any field's `form.key`) may have changed,
   * and the components read them through the store.
   */
  publishFormState(): void {
    const form = this.form;
    const view = this.store.get();
    const errorsChanged = form.errors !== this.publishedErrors;
    this.publishedErrors = form.errors;
    this.store.set({
      ...view,
      errors: errorsChanged ? readMessageLists(form.errors) : view.errors,
      formRenders: view.formRenders + 1,
    });
  }

  /** The element key of a field: Mantine's `form.key`, which changes when it is set from outside. */
  fieldKey(key: string): string {
    return this.form.key(key);
  }

  /** The props of the uncontrolled input that holds `key`; a change is saved by `mode`. */
  bind(key: string, mode: ChangeMode): FieldProps {
    const props = this.form.getInputProps(key, { withError: false, withFocus: false });
    return {
      defaultValue: (props.defaultValue as string | undefined) ?? '',
      onChange: (input) => {
        (props.onChange as (input: unknown) => void)(input);
        this.afterWrite(mode);
      },
    };
  }

  /** A value its own (controlled) component shows already: a lookup's text, an upload. */
  setAnswer(key: string, value: string, mode: ChangeMode): void {
    this.form.setFieldValue(key, value, { forceUpdate: false });
    this.afterWrite(mode);
  }

  /** Values from outside their inputs (a picked record): those inputs show them. */
  fillAnswers(entries: readonly (readonly [string, string])[], mode: ChangeMode): void {
    for (const [key, value] of entries) this.form.setFieldValue(key, value);
    this.afterWrite(mode);
  }

  private afterWrite(mode: ChangeMode): void {
    // docs/validation.md: while validating, the errors follow every change.
    if (this.context.isValidating()) this.form.validate();
    if (!this.context.isLoggedIn()) return;
    window.clearTimeout(this.typingTimer);
    if (mode === 'now') void this.saver.flush();
    else this.typingTimer = window.setTimeout(() => void this.saver.flush(), TYPING_SAVE_DELAY_MS);
  }

  /** The tabs or the web status changed: visibility and errors follow. */
  refresh(): void {
    const tabs = this.context.getTabs();
    const validating = this.context.isValidating();
    const from = this.derivedFrom;
    if (from.tabs === tabs && from.validating === validating) return;
    this.derivedFrom = { tabs, validating };
    if (!this.current) return;
    this.updateView();
    if (validating) this.current.validate();
    else if (Object.keys(this.current.errors).length > 0) this.current.clearErrors();
  }

  /** Empties answers here only (the server cleared them itself, e.g. on a tab switch). */
  clearLocally(keys: readonly string[]): void {
    const form = this.form;
    this.clearingLocally = true;
    try {
      for (const key of keys) form.setFieldValue(key, '');
    } finally {
      this.clearingLocally = false;
    }
    if (this.context.isValidating()) form.validate();
  }

  /** Saves what is pending now; true once everything typed so far is on the server. */
  flush = async (): Promise<boolean> => {
    window.clearTimeout(this.typingTimer);
    if (!this.context.isLoggedIn()) return true;
    return this.saver.flush();
  };

  /** The round closed: nothing typed is saved any more (the inputs are disabled too). */
  freeze(): void {
    window.clearTimeout(this.typingTimer);
    this.saver.freeze();
  }

  dispose(): void {
    window.clearTimeout(this.typingTimer);
  }
}
