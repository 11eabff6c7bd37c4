import { useId } from 'react';
import { Input } from '@mantine/core';

export interface SelectFieldOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  data: readonly SelectFieldOption[];
  required?: boolean;
  error?: string | undefined;
  description?: string | undefined;
  /** A first option with this text and no value, while nothing is chosen. */
  placeholder?: string;
}

/**
 * A labelled native select built from Mantine's Input (as NativeSelect is, and as the staff
 * area's selects are): NativeSelect itself lives in the form pages' deferred chunk, and sharing
 * it would split it into a file of its own.
 */
export function SelectField({
  label,
  value,
  onChange,
  data,
  required = false,
  error,
  description,
  placeholder,
}: SelectFieldProps) {
  const id = useId();
  return (
    <Input.Wrapper
      id={id}
      label={label}
      required={required}
      error={error}
      description={description}
    >
      <Input
        id={id}
        component="select"
        value={value}
        required={required}
        error={error}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}
        rightSection={<span aria-hidden>▾</span>}
        rightSectionPointerEvents="none"
      >
        {placeholder !== undefined ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {data.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </Input>
    </Input.Wrapper>
  );
}
