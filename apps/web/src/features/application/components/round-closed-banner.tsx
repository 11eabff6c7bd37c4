import type { ReactNode } from 'react';
import { Alert, Text } from '@mantine/core';
import { useClosedMessage } from '../state/application-context';

export const CLOSED_TITLE = 'This application can no longer be changed';

/**
 * Above a closed round's application (issue #29): why it reads only, in the server's words, and
 * what the app puts below it (the round picker). Nothing while the application can change.
 */
export function RoundClosedBanner({ children }: { children?: ReactNode }) {
  const message = useClosedMessage();
  if (message === null) return null;
  return (
    <>
      <Alert color="red" variant="light" mb="md" title={CLOSED_TITLE} data-testid="round-closed">
        <Text size="sm">{message}</Text>
      </Alert>
      {children}
    </>
  );
}
