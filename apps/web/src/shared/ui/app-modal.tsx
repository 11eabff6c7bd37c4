import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import type { ModalSize } from '../../config/theme';
import type * as DialogModule from './app-modal-dialog';

export interface AppModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** docs/screens-and-routes.md sizes; xs unless told otherwise. */
  size?: ModalSize;
  closeOnClickOutside?: boolean;
  children: ReactNode;
}

let dialogModule: Promise<typeof DialogModule> | undefined;

// One download shared by the idle prefetch and the first open; a failed one (offline) is
// forgotten so that the next attempt asks again.
function loadDialog() {
  dialogModule ??= import('./app-modal-dialog').catch((error: unknown) => {
    dialogModule = undefined;
    throw error;
  });
  return dialogModule;
}

const AppModalDialog = lazy(() => loadDialog().then((m) => ({ default: m.AppModalDialog })));

let prefetchScheduled = false;

// Mantine's Modal with ScrollArea, the focus trap, the scroll lock and floating-ui is tens of kB
// that no page needs for its first paint; fetched when the browser is idle after it, so that a
// dialog opened later (the idle warning, a confirmation) shows at once.
function schedulePrefetch() {
  if (prefetchScheduled) return;
  prefetchScheduled = true;
  const prefetch = () => void loadDialog().catch(() => undefined);
  if (typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(prefetch, { timeout: 5000 });
  } else {
    window.setTimeout(prefetch, 2000);
  }
}

/**
 * The product's dialog (AppModalDialog: Mantine's modal with the product's widths and a named
 * close button). Renders nothing until it first opens, so pages that only may show a dialog do
 * not load Mantine's modal with their first visit; once opened it stays mounted so that closing
 * animates and returns focus as before.
 */
export function AppModal(props: AppModalProps) {
  const [used, setUsed] = useState(props.opened);
  if (props.opened && !used) setUsed(true);
  useEffect(schedulePrefetch, []);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <AppModalDialog {...props} />
    </Suspense>
  );
}
