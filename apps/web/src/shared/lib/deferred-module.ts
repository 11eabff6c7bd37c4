import { useEffect, useState } from 'react';
import { runAfterNextPaint } from './when-page-settles';

/** Code a page shows after its first paint (see useDeferredModule). */
export interface DeferredModule<T> {
  /** The module once it has arrived, else undefined. */
  peek(): T | undefined;
  /** One download shared by every caller; a failed one (offline) is forgotten, to be asked again. */
  load(): Promise<T>;
}

export function createDeferredModule<T>(importModule: () => Promise<T>): DeferredModule<T> {
  let pending: Promise<T> | undefined;
  let loaded: T | undefined;
  return {
    peek: () => loaded,
    load() {
      pending ??= importModule().then(
        (module) => (loaded = module),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}

/**
 * The module, once it has arrived; asked for after the component's first paint rather than
 * during its render (React.lazy), so that its download does not compete with the files that
 * paint comes from (issue #17: Lighthouse counts every download that ended before the page's
 * largest text painted). A failed download reaches the nearest error boundary.
 */
export function useDeferredModule<T>(module: DeferredModule<T>): T | undefined {
  const [value, setValue] = useState(module.peek);
  const [failure, setFailure] = useState<{ error: unknown }>();
  if (failure) throw failure.error;
  useEffect(() => {
    if (value !== undefined) return;
    let live = true;
    const cancel = runAfterNextPaint(() => {
      module.load().then(
        (loaded) => live && setValue(() => loaded),
        (error: unknown) => live && setFailure({ error }),
      );
    });
    return () => {
      live = false;
      cancel();
    };
  }, [module, value]);
  return value;
}
