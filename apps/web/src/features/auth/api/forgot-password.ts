import { API_ROUTES } from '@admissions/api-contract';
import type { UsernameBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function requestPasswordReset(body: UsernameBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.forgotPassword, 'POST', body);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
