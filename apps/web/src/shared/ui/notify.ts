import { notifications } from '@mantine/notifications';

// docs/errors.md, docs/limits.md: error toasts stay 300000 ms so nobody misses why something failed; success 5000 ms.
export const TOAST_DURATION_MS = 5000;
export const ERROR_TOAST_DURATION_MS = 300000;

// Mantine's close button is an icon; it needs a name for screen readers (axe button-name).
const closeButtonProps = { 'aria-label': 'Close notification' };

/** `id`: a toast that may repeat (a poll failing again) is not shown twice while it is open. */
export function showErrorToast(
  title: string,
  message: string,
  options: { id?: string } = {},
): void {
  notifications.show({
    ...options,
    title,
    message,
    color: 'red',
    autoClose: ERROR_TOAST_DURATION_MS,
    withBorder: true,
    closeButtonProps,
  });
}

/**
 * An auth card's failure, keyed by its title: a new attempt replaces it and a success withdraws
 * it, so a stale "This confirmation code is invalid…" does not follow the applicant onto /login
 * and the application once the right code went through (issue 17).
 */
export function showCardErrorToast(title: string, message: string): void {
  notifications.hide(title);
  showErrorToast(title, message, { id: title });
}

export function hideCardErrorToast(title: string): void {
  notifications.hide(title);
}

export function showSuccessToast(message: string, title = 'Success'): void {
  notifications.show({
    title,
    message,
    color: 'green',
    autoClose: TOAST_DURATION_MS,
    withBorder: true,
    closeButtonProps,
  });
}
