import type { ResetPasswordBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function resetPassword(body: ResetPasswordBody): Promise<MessageResponse> {
  return callApi('POST /public/reset-password', { body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
