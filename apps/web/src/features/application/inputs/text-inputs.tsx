import { PasswordInput, Textarea, TextInput } from '@mantine/core';
import {
  countCharacters,
  formatCharacterCount,
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

export function TextField(props: InputProps) {
  return (
    <TextInput
      {...common(props)}
      maxLength={limitOf(props)}
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
  return (
    <Textarea
      {...common(props)}
      // The counter is the description, read with the field and shown under it.
      description={formatCharacterCount(countCharacters(props.value), limit)}
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
  return (
    <TextInput
      {...common(props)}
      type="date"
      // A partly typed date reads as '' here: an invalid date is never stored (SPEC §5).
      onChange={(e) => props.onChange(props.question.key, e.currentTarget.value, 'typing')}
      maw="16rem"
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
      maw="16rem"
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
