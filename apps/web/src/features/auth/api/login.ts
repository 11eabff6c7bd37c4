import { API_ROUTES } from '@admissions/api-contract';
import type { LoginBody, MessageResponse } from '@admissions/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchJson } from '../../../shared/api/fetch-handler';
import { refreshSession } from '../../../shared/lib/session';

export function logIn(body: LoginBody): Promise<MessageResponse> {
  return fetchJson<MessageResponse>(API_ROUTES.login, 'POST', body);
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
