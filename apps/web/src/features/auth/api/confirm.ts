import { API_ROUTES } from '@admissions/api-contract';
import type { ConfirmBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function confirmAccount(body: ConfirmBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.confirm, 'POST', body);
}

export function useConfirmAccount() {
  return useMutation({ mutationFn: confirmAccount });
}
