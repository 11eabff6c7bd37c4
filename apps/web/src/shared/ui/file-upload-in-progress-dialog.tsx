import { Button, Group, Text } from '@mantine/core';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { AppModal } from './app-modal';

/**
 * docs/behaviour.md Tabs: shown instead of switching when the tab's file is still converting (or is
 * unprocessed), or its deletion failed (the server answers 409 to PUT /api/tabs then).
 */
export function FileUploadInProgressDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <AppModal opened={opened} onClose={onClose} title="File Upload in Progress">
      <Text>{DOCUMENT_MESSAGES.conversionInProgress}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>OK</Button>
      </Group>
    </AppModal>
  );
}
