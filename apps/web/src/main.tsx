import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { connectSessionHandling, routes } from './app/router';
import { createQueryClient } from './shared/api/query-client';
import { loadPartner } from './shared/lib/partner';

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);
connectSessionHandling(router, queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

// One small request before the first render: labels, limits and the alert depend on it.
void loadPartner().then(() => {
  const root = createRoot(container);
  // As a transition the first render yields to the browser every few milliseconds instead of
  // building a whole form page (about 1,500 elements) in one long task that blocks input.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    );
  });
});
