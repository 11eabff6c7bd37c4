import type { UsernameBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function requestPasswordReset(body: UsernameBody): Promise<MessageResponse> {
  return callApi('POST /public/forgot-password', { body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
