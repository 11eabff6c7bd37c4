import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { notificationsStore } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { DEFAULT_IDLE_CONFIG, IdleConfigContext, type IdleConfig } from '../config/idle';
import { theme } from '../config/theme';
import { runWhenPageSettles } from '../shared/lib/when-page-settles';
import { AppErrorBoundary } from '../shared/ui/error-boundary';

// The toast container (transitions, swipe to dismiss) loads once the page has settled, or at the
// first toast: asked for with the first render, its two files were the last downloads before the
// page's largest text could paint (issue #17). A toast raised before it arrives waits in
// Mantine's store and shows when it mounts.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

const hasToasts = () => {
  const { notifications, queue } = notificationsStore.getState();
  return notifications.length > 0 || queue.length > 0;
};

function DeferredNotifications() {
  const [wanted, setWanted] = useState(hasToasts);
  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    if (hasToasts()) want();
    const unsubscribe = notificationsStore.subscribe(() => {
      if (hasToasts()) want();
    });
    const cancel = runWhenPageSettles(want);
    return () => {
      unsubscribe();
      cancel();
    };
  }, [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="bottom-center" allowDragDismiss limit={5} />
    </Suspense>
  );
}

export interface AppProviderProps {
  queryClient: QueryClient;
  /** 'test' turns off Mantine's transitions and portals under jsdom. */
  env?: 'default' | 'test';
  idleConfig?: IdleConfig;
  children: ReactNode;
}

export function AppProvider({
  queryClient,
  env = 'default',
  idleConfig = DEFAULT_IDLE_CONFIG,
  children,
}: AppProviderProps) {
  return (
    <MantineProvider theme={theme} env={env} defaultColorScheme="light">
      {/* docs/limits.md: toasts can be swiped away to the right. Error toasts stay five minutes, so
          they sit at the bottom, clear of the header's account button and the card. */}
      <DeferredNotifications />
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <IdleConfigContext value={idleConfig}>{children}</IdleConfigContext>
        </QueryClientProvider>
      </AppErrorBoundary>
    </MantineProvider>
  );
}
