import type { ReactNode } from 'react';
import type { Answers, InputType, Question } from '@admissions/form';
import type { ChangeMode } from '../state/answers-state';

/** What every input component receives; the field wrapper computes it from the definition. */
export interface InputProps {
  question: Question;
  /** The element id: the question key, so `{page}#{questionKey}` links land on it. */
  id: string;
  label: string;
  help?: string;
  value: string;
  /**
   * The answers the input renders from, and only those: its own keys (a month-year's year too)
   * and the answer a dependent option list follows. Kept this narrow so that the question
   * re-renders when they change and not on every keystroke elsewhere.
   */
  answers: Answers;
  /** Every answer as it is now, for event handlers (a picked place fills the empty lines). */
  readAnswers: () => Answers;
  /** The messages of the question's keys, joined; undefined when it has none. */
  error?: string;
  required: boolean;
  isLoggedIn: boolean;
  onChange: (key: string, value: string, mode: ChangeMode) => void;
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
