import { lazy, Suspense, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { DEFAULT_IDLE_CONFIG, IdleConfigContext, type IdleConfig } from '../config/idle';
import { theme } from '../config/theme';
import { AppErrorBoundary } from '../shared/ui/error-boundary';

// The toast container (transitions, swipe to dismiss) loads after the page; a toast raised before
// it arrives waits in Mantine's store and shows when it mounts.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

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
      <Suspense fallback={null}>
        <Notifications position="bottom-center" allowDragDismiss limit={5} />
      </Suspense>
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <IdleConfigContext value={idleConfig}>{children}</IdleConfigContext>
        </QueryClientProvider>
      </AppErrorBoundary>
    </MantineProvider>
  );
}
