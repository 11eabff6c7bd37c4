import { API_ROUTES } from '@admissions/api-contract';
import type { SignupBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';

export function signUp(body: SignupBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.signup, 'POST', body);
}

export function useSignup() {
  return useMutation({ mutationFn: signUp });
}
