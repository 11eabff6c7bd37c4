import { useState } from 'react';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** A password input whose show/hide toggle is a real, labelled, keyboard-reachable button. */
export function PasswordField(props: Omit<PasswordInputProps, 'visible' | 'onVisibilityChange'>) {
  const [visible, setVisible] = useState(false);
  const label = typeof props.label === 'string' ? props.label.toLowerCase() : 'password';
  return (
    <PasswordInput
      {...props}
      // Mantine's PasswordInput marks errors only with data-invalid; assistive tech needs aria.
      aria-invalid={props.error ? true : undefined}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{
        'aria-label': visible ? `Hide ${label}` : `Show ${label}`,
        'aria-pressed': visible,
      }}
    />
  );
}
