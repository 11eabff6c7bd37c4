import type { LoginBody, MessageResponse } from '@admissions/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/call-api';
import { refreshSession } from '../../../shared/lib/session';

export function logIn(body: LoginBody): Promise<MessageResponse> {
  return callApi('POST /public/login', { body });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logIn,
    onSuccess: () => {
      // Whatever was cached belonged to the previous visitor (or to nobody).
      queryClient.clear();
      refreshSession();
    },
  });
}
