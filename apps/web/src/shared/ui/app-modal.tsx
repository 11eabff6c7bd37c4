import { useEffect, useState } from 'react';
import { runWhenPageSettles } from '../lib/when-page-settles';
import type * as DialogModule from './app-modal-dialog';
import type { AppModalProps } from './app-modal-dialog';

export type { AppModalProps };

type Dialog = typeof DialogModule.AppModalDialog;

let dialogModule: Promise<Dialog> | undefined;
let loadedDialog: Dialog | undefined;

// One download shared by the idle prefetch and the first open; a failed one (offline) is
// forgotten so that the next open asks again.
function loadDialog() {
  dialogModule ??= import('./app-modal-dialog').then(
    (m) => (loadedDialog = m.AppModalDialog),
    (error: unknown) => {
      dialogModule = undefined;
      throw error;
    },
  );
  return dialogModule;
}

let prefetchScheduled = false;

// Mantine's Modal with ScrollArea, the scroll lock and its transitions: weight that no page
// needs for its first paint. Fetched once the page has settled, so that a dialog opened later
// (the idle warning, a confirmation) shows at once.
function schedulePrefetch() {
  if (prefetchScheduled) return;
  prefetchScheduled = true;
  runWhenPageSettles(() => void loadDialog().catch(() => undefined));
}

/**
 * The product's dialog (AppModalDialog: Mantine's modal with the product's widths and a named
 * close button). Renders nothing until it first opens, so pages that only may show a dialog do
 * not load Mantine's modal with their first visit; once opened it stays mounted so that closing
 * animates and returns focus as before. Not React.lazy: Suspense holds back content that
 * replaced a fallback for up to 300 ms, and the first open would wait for that too.
 */
export function AppModal(props: AppModalProps) {
  const { opened } = props;
  const [used, setUsed] = useState(opened);
  const [arrived, setArrived] = useState<Dialog | undefined>(undefined);
  const LoadedDialog = arrived ?? loadedDialog;
  if (opened && !used) setUsed(true);
  useEffect(schedulePrefetch, []);
  useEffect(() => {
    if (!used || LoadedDialog) return;
    let live = true;
    loadDialog().then(
      (dialog) => live && setArrived(() => dialog),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [used, opened, LoadedDialog]);
  if (!used || !LoadedDialog) return null;
  return <LoadedDialog {...props} />;
}
