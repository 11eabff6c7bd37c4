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
import type { InputProps } from './input-props';
import { getPartner } from '../../../shared/lib/partner';

function limitOf(props: InputProps): number {
  return limitForRole(props.question, 'value', getPartner());
}

function common(props: InputProps) {
  return {
    id: props.id,
    label: props.label,
    description: props.help,
    error: props.error,
    withAsterisk: props.required,
    value: props.value,
    onBlur: props.onCommit,
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
      {...common(props)}
      maw={widthForLimit(limit)}
      maxLength={limit}
      autoComplete="off"
      onChange={(e) => props.onChange(props.question.key, e.currentTarget.value, 'typing')}
    />
  );
}

export function PasswordField(props: InputProps) {
  return (
    <PasswordInput
      {...common(props)}
      maxLength={limitOf(props)}
      onChange={(e) => props.onChange(props.question.key, e.currentTarget.value, 'typing')}
    />
  );
}

export function TextareaField(props: InputProps) {
  const limit = limitOf(props);
  // How many pasted characters maxLength dropped in the last paste (0: it all fit).
  const [pasteCut, setPasteCut] = useState(0);
  const counter = formatCharacterCount(countCharacters(props.value), limit);
  return (
    <Textarea
      {...common(props)}
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
      onChange={(e) => props.onChange(props.question.key, e.currentTarget.value, 'typing')}
    />
  );
}

export function DateField(props: InputProps) {
  // A partly typed date reads as '' (an invalid date is never stored), so the rules see an empty
  // field and would name the label; the browser knows it is half typed (validity.badInput).
  const [partial, setPartial] = useState(false);
  const invalidMessage = props.question.date?.invalidMessage ?? MESSAGES.dateInvalid;
  const error = partial && props.error ? invalidMessage : props.error;
  return (
    <TextInput
      {...common(props)}
      error={error}
      type="date"
      onChange={(e) => {
        setPartial(e.currentTarget.validity.badInput);
        props.onChange(props.question.key, e.currentTarget.value, 'typing');
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
      {...common(props)}
      type="tel"
      inputMode="tel"
      autoComplete="off"
      placeholder="(555) 555-5555"
      maxLength={14}
      maw="12rem"
      onChange={(e) =>
        props.onChange(props.question.key, formatPhone(e.currentTarget.value), 'typing')
      }
    />
  );
}

export function SsnField(props: InputProps) {
  return (
    <TextInput
      {...common(props)}
      inputMode="numeric"
      autoComplete="off"
      placeholder="NNN-NN-NNNN"
      maxLength={11}
      maw="16rem"
      onChange={(e) =>
        props.onChange(props.question.key, formatSsn(e.currentTarget.value), 'typing')
      }
    />
  );
}
