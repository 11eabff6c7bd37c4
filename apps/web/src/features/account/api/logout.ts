import { MESSAGES } from '@admissions/api-contract';
import type { MessageResponse } from '@admissions/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { isUnauthorizedError } from '../../../shared/api/errors';
import { callApi } from '../../../shared/api/call-api';
import { leaveSession } from '../../../shared/lib/leave-session';
import { runBeforeLeave } from '../../../shared/lib/before-leave';

export function logOut(options: { sessionRedirect?: boolean } = {}): Promise<MessageResponse> {
  return callApi('GET /api/logout', {}, options);
}

/**
 * The popover's Log Out (docs/behaviour.md): to /login with the logout message and an empty cache.
 * A 401 is handled by the fetch handler (session message); anything else is a real failure
 * and goes to the error boundary.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      // Text still being typed is saved before the session ends.
      await runBeforeLeave();
      return logOut();
    },
    throwOnError: (error) => !isUnauthorizedError(error),
    onSuccess: (response) =>
      leaveSession(navigate, queryClient, {
        successMessage: response.message || MESSAGES.loggedOut,
      }),
  });
}

/**
 * The idle time-out's logout. The server may already have expired the session (its idle limit
 * is the same 15 minutes), so a 401 or any failure still ends in the inactivity message.
 */
export function useIdleLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      await runBeforeLeave();
      return logOut({ sessionRedirect: false });
    },
    onSettled: () => leaveSession(navigate, queryClient, { errorMessage: MESSAGES.idleLogout }),
  });
}
