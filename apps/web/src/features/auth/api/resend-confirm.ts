import type { UsernameBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function resendConfirmationCode(body: UsernameBody): Promise<MessageResponse> {
  return callApi('POST /public/resend-confirm', { body });
}

export function useResendConfirmationCode() {
  return useMutation({ mutationFn: resendConfirmationCode });
}
