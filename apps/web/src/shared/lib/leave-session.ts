import type { QueryClient } from '@tanstack/react-query';
import { PATHS } from '../../config/paths';
import type { AuthLocationState } from './auth-location-state';
import { clearLoginMarker } from './session';

type Navigate = (to: string, options: { state: AuthLocationState }) => void | Promise<void>;

/**
 * Every way out of a session ends on /login with a message, an empty cache and no marker.
 * Navigating first matters: dropping the marker while a form page is still mounted would make
 * it redirect to /login on its own, without the message.
 */
export async function leaveSession(
  navigate: Navigate,
  queryClient: QueryClient,
  state: AuthLocationState,
): Promise<void> {
  await navigate(PATHS.login, { state });
  queryClient.clear();
  clearLoginMarker();
}
