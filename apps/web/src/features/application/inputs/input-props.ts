import type { ReactNode } from 'react';
import type { Answers, InputType, Question } from '@admissions/form';
import type { ChangeMode } from '../components/application-provider';

/** What every input component receives; the field wrapper computes it from the definition. */
export interface InputProps {
  question: Question;
  /** The element id: the question key, so `{page}#{questionKey}` links land on it. */
  id: string;
  label: string;
  help?: string;
  value: string;
  answers: Answers;
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
