import type { ConfirmBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function confirmAccount(body: ConfirmBody): Promise<MessageResponse> {
  return callApi('POST /public/confirm', { body });
}

export function useConfirmAccount() {
  return useMutation({ mutationFn: confirmAccount });
}
