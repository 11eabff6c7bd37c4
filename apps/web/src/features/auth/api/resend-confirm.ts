import { API_ROUTES } from '@admissions/api-contract';
import type { UsernameBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function resendConfirmationCode(body: UsernameBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.resendConfirm, 'POST', body);
}

export function useResendConfirmationCode() {
  return useMutation({ mutationFn: resendConfirmationCode });
}
