import { useId, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import classes from './file-drop-zone.module.css';

export const FILE_DROP_TEXT = 'Drag your file here or';
export const FILE_DROP_ACTION = 'choose a file';

export interface FileDropZoneProps {
  /** Names the file input (the visible label above the box). */
  label: string;
  /** The rules under the words in the box; they describe the input too. */
  rules: string;
  accept: string;
  invalid?: boolean;
  disabled?: boolean;
  onFile: (file: File) => void;
  'data-testid'?: string;
}

/**
 * A labelled drop zone (the application's upload widget draws the same box): a click anywhere on
 * it opens the browser's chooser, Tab, Space and Enter behave as on the browser's own control,
 * and a file dropped on it is taken like a chosen one.
 */
export function FileDropZone({
  label,
  rules,
  accept,
  invalid = false,
  disabled = false,
  onFile,
  'data-testid': testId,
}: FileDropZoneProps) {
  const inputId = useId();
  const labelId = useId();
  const rulesId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  return (
    <div>
      <Text component="label" htmlFor={inputId} id={labelId} fw={500} display="block" mb={4}>
        {label}
      </Text>
      <label
        htmlFor={inputId}
        className={classes.zone}
        data-dragging={dragging}
        data-invalid={invalid}
        data-disabled={disabled}
        data-testid={testId}
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          // A disabled fieldset around the zone disables the input: a drop is refused like a click.
          if (disabled || input.current?.matches(':disabled')) return;
          const file = event.dataTransfer.files[0];
          if (file) onFile(file);
        }}
      >
        <input
          ref={input}
          id={inputId}
          className={classes.input}
          type="file"
          accept={accept}
          disabled={disabled}
          aria-invalid={invalid}
          aria-labelledby={labelId}
          aria-describedby={rulesId}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // Cleared at once, so the same file can be chosen again after a refusal.
            event.currentTarget.value = '';
            if (file) onFile(file);
          }}
        />
        <Text component="span" size="sm" display="block" aria-hidden="true">
          {FILE_DROP_TEXT} <span className={classes.action}>{FILE_DROP_ACTION}</span>
        </Text>
        <Text component="span" size="xs" c="dimmed" display="block" id={rulesId}>
          {rules}
        </Text>
      </label>
    </div>
  );
}
