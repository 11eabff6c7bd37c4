import { Button, Group, Text } from '@mantine/core';
import {
  useApplicationActions,
  useClosedMessage,
  useIsLoggedIn,
  useSaveState,
} from '../state/application-context';

export const SAVE_TEXTS = {
  saving: 'Saving…',
  saved: 'All changes saved',
  error: 'Not saved',
  retry: 'Retry',
} as const;

/** Beyond the spec: the applicant can always see whether their answers are on the server. */
export function SaveStatus() {
  const saveState = useSaveState();
  const isLoggedIn = useIsLoggedIn();
  const { retrySave } = useApplicationActions();
  // A closed round's application saves nothing: no state to show, no Retry to offer.
  const closed = useClosedMessage() !== null;
  if (!isLoggedIn || closed) return null;
  return (
    <Group
      gap="xs"
      role="status"
      aria-live="polite"
      data-testid="save-status"
      data-state={saveState}
    >
      {saveState === 'saving' && <Text size="sm">{SAVE_TEXTS.saving}</Text>}
      {saveState === 'saved' && (
        <Text size="sm" c="green.9">
          {SAVE_TEXTS.saved}
        </Text>
      )}
      {saveState === 'error' && (
        <>
          <Text size="sm" c="red.8" fw={700}>
            {SAVE_TEXTS.error} —
          </Text>
          <Button size="compact-sm" variant="outline" color="red" onClick={retrySave}>
            {SAVE_TEXTS.retry}
          </Button>
        </>
      )}
    </Group>
  );
}
