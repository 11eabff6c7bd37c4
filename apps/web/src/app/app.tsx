import { RouterProvider } from 'react-router';
import { AppProvider, type AppProviderProps } from './provider';
import type { AppRouter } from './router';

export function App({
  router,
  ...providerProps
}: Omit<AppProviderProps, 'children'> & { router: AppRouter }) {
  return (
    <AppProvider {...providerProps}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
