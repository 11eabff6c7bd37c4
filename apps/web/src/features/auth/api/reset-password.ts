import { API_ROUTES } from '@admissions/api-contract';
import type { ResetPasswordBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function resetPassword(body: ResetPasswordBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.resetPassword, 'POST', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
