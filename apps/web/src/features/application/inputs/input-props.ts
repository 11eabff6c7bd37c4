import type { ReactNode } from 'react';
import type { Answers, InputType, Question } from '@admissions/form';
import type { ChangeMode, FieldProps } from '../state/answers-state';

/**
 * What every input component receives; the field wrapper computes it from the definition. The
 * values live in the application's @mantine/form form (uncontrolled): an input starts from
 * `bind(key).defaultValue` and reports changes through `bind(key).onChange`; the browser holds
 * what is typed, so a keystroke re-renders nothing.
 */
export interface InputProps {
  question: Question;
  /** The element id: the question key, so `{page}#{questionKey}` links land on it. */
  id: string;
  label: string;
  help?: string;
  /**
   * The element key of the question's uncontrolled inputs (Mantine's `form.key` of its keys): it
   * changes when an answer is set from outside the input (a dependent answer cleared, a picked
   * record), and the remounted input starts from the new value.
   */
  fieldKey: string;
  /** Mantine's props for the uncontrolled input of one of the question's keys. */
  bind: (key: string, mode: ChangeMode) => FieldProps;
  /**
   * The answers the question's option lists follow (a dependent list's control), and only those:
   * the question re-renders when they change and not on every keystroke elsewhere.
   */
  answers: Answers;
  /** Every answer as it is now, for event handlers (a picked place fills the empty lines). */
  readAnswers: () => Answers;
  /** The messages of the question's keys, joined; undefined when it has none. */
  error?: string;
  required: boolean;
  isLoggedIn: boolean;
  /** A value the input's own (controlled) component shows already: a lookup's text, an upload. */
  onChange: (key: string, value: string, mode: ChangeMode) => void;
  /** Answers set from outside their inputs (a picked record): those inputs show them. */
  onFill: (entries: readonly (readonly [string, string])[], mode: ChangeMode) => void;
  /** Leaving the field: save now. */
  onCommit: () => void;
  /** File questions report their conversion status (tabs refuse to switch while pending). */
  onUploadStatus?: (key: string, status: string) => void;
}

export type InputComponent = (props: InputProps) => ReactNode;

/**
 * One component per input type. Written as a mapped type so that adding an input type to the
 * definition without a component here is a compile error.
 */
export type InputRegistry = { readonly [T in InputType]: InputComponent };
