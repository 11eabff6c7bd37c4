import type { SignupBody, MessageResponse } from '@admissions/api-contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';

export function signUp(body: SignupBody): Promise<MessageResponse> {
  return callApi('POST /public/signup', { body });
}

export function useSignup() {
  return useMutation({ mutationFn: signUp });
}
