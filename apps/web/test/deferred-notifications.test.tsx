import { act, render, screen } from '@testing-library/react';
import { cleanNotifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../src/app/provider';
import { createQueryClient } from '../src/shared/api/query-client';
import { showErrorToast } from '../src/shared/ui/notify';

// The toast container's own root, which Mantine renders as soon as it is mounted.
const containerRoot = () => document.querySelector('.mantine-Notifications-root');

function renderProvider() {
  return render(
    <AppProvider queryClient={createQueryClient()} env="test">
      <p>Page</p>
    </AppProvider>,
  );
}

describe('the toast container', () => {
  afterEach(() => {
    act(() => cleanNotifications());
    vi.useRealTimers();
  });

  it('stays out of a page’s first load until the page has settled', async () => {
    vi.useFakeTimers();
    renderProvider();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(containerRoot()).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    vi.useRealTimers();
    await vi.waitFor(() => expect(containerRoot()).not.toBeNull());
  });

  it('shows a toast raised before then', async () => {
    renderProvider();
    expect(containerRoot()).toBeNull();
    act(() => showErrorToast('Error', 'The server could not be reached.'));
    expect(await screen.findByText('The server could not be reached.')).toBeInTheDocument();
  });
});
