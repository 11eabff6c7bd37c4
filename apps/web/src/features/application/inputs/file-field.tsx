import { Alert, Text } from '@mantine/core';
import type { InputProps } from './input-props';

export const ANONYMOUS_UPLOAD_MESSAGE =
  'This question can be finished once you have created an account.';
export const UPLOAD_COMING_SOON = 'Uploading a document is coming soon. Please check back later.';

/** Placeholder until the upload widget lands; an anonymous visitor cannot upload (SPEC §6). */
export function FileField(props: InputProps) {
  return (
    <div id={props.id} tabIndex={-1} role="group" aria-labelledby={`${props.id}-label`}>
      <Text id={`${props.id}-label`} fw={600} size="sm">
        {props.label}
      </Text>
      {props.help && (
        <Text size="sm" c="dimmed">
          {props.help}
        </Text>
      )}
      <Alert mt="xs" color="gray" variant="light">
        {props.isLoggedIn ? UPLOAD_COMING_SOON : ANONYMOUS_UPLOAD_MESSAGE}
      </Alert>
      {props.error && (
        <Text size="sm" c="red.8" mt={4} role="note">
          {props.error}
        </Text>
      )}
    </div>
  );
}
