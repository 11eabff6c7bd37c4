import { Alert } from '@mantine/core';

/** A message handed over from another screen (e.g. "You have been logged out."). */
export function MessageAlert({ kind, message }: { kind: 'success' | 'error'; message: string }) {
  return (
    <Alert
      color={kind === 'success' ? 'green' : 'red'}
      variant="light"
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid={`${kind}-message`}
    >
      {message}
    </Alert>
  );
}
