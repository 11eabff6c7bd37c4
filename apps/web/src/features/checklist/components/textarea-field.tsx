import { useId } from 'react';
import { Input, Text } from '@mantine/core';

export interface TextareaFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Characters allowed: the counter under the box counts up to it. */
  maxLength: number;
  rows?: number;
  required?: boolean;
  description?: string | undefined;
  error?: string | undefined;
  disabled?: boolean;
}

/** "123 of 1,000 characters". */
export function formatCharacterCount(length: number, limit: number): string {
  return `${length.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} characters`;
}

/**
 * A labelled text area with a character counter, built from Mantine's Input (as the selects of
 * the staff area and the checklist are): Mantine's Textarea lives in the form pages' deferred
 * chunk. The counter describes the box, so it is read with it rather than on every keystroke.
 */
export function TextareaField({
  label,
  value,
  onChange,
  maxLength,
  rows = 6,
  required = false,
  description,
  error,
  disabled = false,
}: TextareaFieldProps) {
  const id = useId();
  const counterId = useId();
  const describedBy = [
    description ? `${id}-description` : '',
    error ? `${id}-error` : '',
    counterId,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Input.Wrapper
      id={id}
      label={label}
      required={required}
      description={description}
      error={error}
    >
      <Input
        id={id}
        component="textarea"
        rows={rows}
        value={value}
        maxLength={maxLength}
        required={required}
        disabled={disabled}
        error={error}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        multiline
        onChange={(event) => onChange((event.currentTarget as HTMLTextAreaElement).value)}
      />
      <Text size="xs" c="dimmed" ta="right" id={counterId} data-testid="character-count">
        {formatCharacterCount(value.length, maxLength)}
      </Text>
    </Input.Wrapper>
  );
}
