// POST /api/checklist/:item/document (issue #30): the file of an item the office asked for, as
// base64 in the body. The answer is the fresh checklist, the item `upload.status: 'converting'`
// until the server has converted it (the checklist query polls meanwhile).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';
import { readChecklistFile } from '../lib/checklist-file';
import { checklistQueryKey } from './get-checklist';

export function useUploadChecklistItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, file }: { item: string; file: File }) =>
      callApi('POST /api/checklist/:item/document', {
        params: { item },
        body: await readChecklistFile(file),
      }),
    onSuccess: (checklist) => queryClient.setQueryData(checklistQueryKey, checklist),
  });
}
