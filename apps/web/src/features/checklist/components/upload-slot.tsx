// The upload of an item the office asked for (issue #30): PDF or Word up to 1 MB, checked here
// first with the server's words. While the server converts it the item says so (the checklist
// polls); a failed conversion shows the converter's message beside the file's name, and the slot
// takes another file.
import { useState } from 'react';
import { Group, Input, Loader, Stack, Text } from '@mantine/core';
import type { ChecklistItem } from '@admissions/api-contract';
import {
  CHECKLIST_FILE_ACCEPT,
  CHECKLIST_FILE_RULES,
  checkChecklistFile,
} from '../lib/checklist-file';
import { FileDropZone } from './file-drop-zone';
import { useUploadChecklistItem } from '../api/upload-item';

export function UploadSlot({ item }: { item: ChecklistItem }) {
  const upload = useUploadChecklistItem();
  const [problem, setProblem] = useState<{ fileName: string; message: string } | null>(null);
  const [fileName, setFileName] = useState('');

  if (!item.uploadable || item.status !== 'awaiting') return null;

  const choose = (file: File) => {
    const refused = checkChecklistFile(file);
    setFileName(file.name);
    setProblem(refused ? { fileName: file.name, message: refused } : null);
    if (refused) return;
    upload.mutate(
      { item: item.id, file },
      { onError: (error) => setProblem({ fileName: file.name, message: error.message }) },
    );
  };

  if (upload.isPending || item.upload?.status === 'converting') {
    const name = item.upload?.status === 'converting' ? item.upload.file_name : fileName;
    return (
      <Group gap="xs" role="status" data-testid="checklist-upload-converting" wrap="nowrap">
        <Loader size="sm" aria-hidden />
        <Text size="sm">
          {upload.isPending ? 'Uploading' : 'Converting'} {name}…
        </Text>
      </Group>
    );
  }

  // The browser's refusal or the server's, else the converter's from the last try.
  const failure =
    problem ??
    (item.upload?.status === 'failed'
      ? { fileName: item.upload.file_name, message: item.upload.message }
      : null);
  return (
    <Stack gap={6}>
      <FileDropZone
        label={`Upload ${item.title}`}
        rules={CHECKLIST_FILE_RULES}
        accept={CHECKLIST_FILE_ACCEPT}
        invalid={failure !== null}
        onFile={choose}
        data-testid="checklist-upload-drop-zone"
      />
      {failure ? (
        <Input.Error role="alert" data-testid="checklist-upload-failure">
          <strong>{failure.fileName}</strong>: {failure.message}
        </Input.Error>
      ) : null}
    </Stack>
  );
}
