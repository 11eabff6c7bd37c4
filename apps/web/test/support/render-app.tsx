import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { App } from '../../src/app/app';
import { connectSessionHandling, routes } from '../../src/app/router';
import type { IdleConfig } from '../../src/config/idle';
import { createQueryClient } from '../../src/shared/api/query-client';
import { refreshSession } from '../../src/shared/lib/session';

export interface RenderAppOptions {
  path?: string;
  state?: unknown;
  idleConfig?: IdleConfig;
}

/** The real routes inside the real providers, on a memory history the test can inspect. */
export function renderApp({ path = '/login', state, idleConfig }: RenderAppOptions = {}) {
  refreshSession();
  const queryClient = createQueryClient();
  const url = new URL(path, 'http://localhost');
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: url.pathname, search: url.search, state }],
  });
  const disconnect = connectSessionHandling(router, queryClient);
  const user = userEvent.setup();
  const view = render(
    <App
      router={router}
      queryClient={queryClient}
      env="test"
      {...(idleConfig ? { idleConfig } : {})}
    />,
  );
  const unmount = () => {
    view.unmount();
    disconnect();
  };
  return { ...view, unmount, router, queryClient, user };
}

/**
 * Waits until a form page has all its sections: the title and the frame's banner paint first and
 * the sections follow one per transition (application-page.tsx); its actions (Save…) show below
 * the last one.
 */
export async function findCompleteFormPage(timeout = 45_000): Promise<void> {
  await screen.findByRole('button', { name: /^Save( and Continue)?$/ }, { timeout });
}
