import { useMemo, useState, useSyncExternalStore } from 'react';

/** A value outside React that components read through selectors (`useStoreSelector`). */
export interface Store<T> {
  get: () => T;
  set: (next: T) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set: (next) => {
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Equal arrays of the same values in the same order (a selection of several answers). */
export function isShallowEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

/** The selection a component rendered last, shared by the getters of its successive renders. */
interface SelectionMemo<T, S> {
  last?: { state: T; select: (state: T) => S; selection: S };
}

/**
 * A getter of `select(store.get())` that returns the previous selection while the new one is
 * equal to it, so that React sees the same value and skips the render. The memo outlives the
 * getter: React keeps checking a change with the getter of the last committed render until its
 * effects run, and that getter must compare with what the newest render selected.
 */
function createSelectionGetter<T, S>(
  store: Store<T>,
  select: (state: T) => S,
  isEqual: (a: S, b: S) => boolean,
  memo: SelectionMemo<T, S>,
): () => S {
  return () => {
    const state = store.get();
    const { last } = memo;
    // A render's selector may close over other values (another store's part): a new one asks again.
    if (last?.state === state && last.select === select) return last.selection;
    const selection = select(state);
    const kept = last !== undefined && isEqual(last.selection, selection);
    memo.last = { state, select, selection: kept && last ? last.selection : selection };
    return memo.last.selection;
  };
}

/**
 * The part of a store a component shows. The component re-renders only when that part changes
 * (by `isEqual`), not on every change of the store: a keystroke re-renders the question whose
 * answer changed, not the page.
 */
export function useStoreSelector<T, S>(
  store: Store<T>,
  select: (state: T) => S,
  isEqual: (a: S, b: S) => boolean = Object.is,
): S {
  // One per component: the store a component reads never changes.
  const [memo] = useState<SelectionMemo<T, S>>(() => ({}));
  const getSelection = useMemo(
    () => createSelectionGetter(store, select, isEqual, memo),
    [store, select, isEqual, memo],
  );
  return useSyncExternalStore(store.subscribe, getSelection, getSelection);
}
