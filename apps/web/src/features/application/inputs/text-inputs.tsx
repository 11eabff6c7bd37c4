import { useState } from 'react';
import { PasswordInput, Textarea, TextInput } from '@mantine/core';
import {
  MESSAGES,
  countCharacters,
  formatCharacterCount,
  formatPasteCut,
  formatPhone,
  formatSsn,
  limitForRole,
} from '@admissions/form';
import { useAnswerValue } from '../state/application-context';
import type { InputProps } from './input-props';
import { getPartner } from '../../../shared/lib/partner';

function limitOf(props: InputProps): number {
  return limitForRole(props.question, 'value', getPartner());
}

/** The wrapper's props; the value is the form's (uncontrolled: `bind` gives where it starts). */
function common(props: InputProps) {
  return {
    id: props.id,
    label: props.label,
    description: props.help,
    error: props.error,
    withAsterisk: props.required,
    onBlur: props.onCommit,
  };
}

/**
 * A field whose text is reformatted as typed (phone, SSN): the input is uncontrolled, so the
 * formatted text is written back into it before the form gets it.
 */
function bindFormatted(props: InputProps, format: (typed: string) => string) {
  const field = props.bind(props.question.key, 'typing');
  return {
    defaultValue: field.defaultValue,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const input = event.currentTarget;
      const formatted = format(input.value);
      if (input.value !== formatted) input.value = formatted;
      field.onChange(formatted);
    },
  };
}

/**
 * A field as wide as what it holds: a ZIP code or a name is not stretched across the page.
 * Short limits get short fields; the rest stay readable without spanning a wide screen.
 */
export function widthForLimit(limit: number): string {
  if (limit <= 12) return '10rem';
  if (limit <= 60) return '24rem';
  return '36rem';
}

export function TextField(props: InputProps) {
  const limit = limitOf(props);
  return (
    <TextInput
      key={props.fieldKey}
      {...common(props)}
      {...props.bind(props.question.key, 'typing')}
      maw={widthForLimit(limit)}
      maxLength={limit}
      autoComplete="off"
    />
  );
}

export function PasswordField(props: InputProps) {
  return (
    <PasswordInput
      key={props.fieldKey}
      {...common(props)}
      {...props.bind(props.question.key, 'typing')}
      maxLength={limitOf(props)}
    />
  );
}

export function TextareaField(props: InputProps) {
  const limit = limitOf(props);
  // How many pasted characters maxLength dropped in the last paste (0: it all fit).
  const [pasteCut, setPasteCut] = useState(0);
  // The counter shows the text, so this question re-renders as it is typed (only this one).
  const value = useAnswerValue(props.question.key);
  const counter = formatCharacterCount(countCharacters(value), limit);
  return (
    <Textarea
      key={props.fieldKey}
      {...common(props)}
      {...props.bind(props.question.key, 'typing')}
      // The counter is the description, read with the field and shown under it; a paste that did
      // not fit says so there, since the browser cuts it silently.
      description={pasteCut > 0 ? `${counter}. ${formatPasteCut(limit, pasteCut)}` : counter}
      onPaste={(e) => {
        const area = e.currentTarget;
        // maxLength counts UTF-16 units; so does this.
        const kept = area.value.length - (area.selectionEnd - area.selectionStart);
        const pasted = e.clipboardData.getData('text/plain').length;
        setPasteCut(Math.max(0, kept + pasted - limit));
      }}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      autosize
      minRows={6}
      maxRows={20}
      maxLength={limit}
    />
  );
}

export function DateField(props: InputProps) {
  // A partly typed date reads as '' (an invalid date is never stored), so the rules see an empty
  // field and would name the label; the browser knows it is half typed (validity.badInput).
  const [partial, setPartial] = useState(false);
  const invalidMessage = props.question.date?.invalidMessage ?? MESSAGES.dateInvalid;
  const error = partial && props.error ? invalidMessage : props.error;
  const field = props.bind(props.question.key, 'typing');
  return (
    <TextInput
      key={props.fieldKey}
      {...common(props)}
      error={error}
      type="date"
      defaultValue={field.defaultValue}
      onChange={(e) => {
        setPartial(e.currentTarget.validity.badInput);
        field.onChange(e);
      }}
      onBlur={(e) => {
        setPartial(e.currentTarget.validity.badInput);
        props.onCommit();
      }}
      maw="12rem"
    />
  );
}

export function PhoneField(props: InputProps) {
  return (
    <TextInput
      key={props.fieldKey}
      {...common(props)}
      {...bindFormatted(props, formatPhone)}
      type="tel"
      inputMode="tel"
      autoComplete="off"
      placeholder="(555) 555-5555"
      maxLength={14}
      maw="12rem"
    />
  );
}

export function SsnField(props: InputProps) {
  return (
    <TextInput
      key={props.fieldKey}
      {...common(props)}
      {...bindFormatted(props, formatSsn)}
      inputMode="numeric"
      autoComplete="off"
      placeholder="NNN-NN-NNNN"
      maxLength={11}
      maw="16rem"
    />
  );
}
