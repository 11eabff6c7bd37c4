// Status and submit: the docs/data-model.md client snapshot (web status, last page, login) and
// the request to focus the missing-information summary after a failed submit.
import { createStore, type Store } from './create-store';
import type { ClientSnapshot } from '../lib/client-snapshot';

export interface StatusView {
  snapshot: ClientSnapshot;
  /** Bumped when the missing-information summary should take focus (after a failed submit). */
  summaryFocusRequest: number;
}

export class StatusState {
  readonly store: Store<StatusView>;

  constructor(snapshot: ClientSnapshot) {
    this.store = createStore<StatusView>({ snapshot, summaryFocusRequest: 0 });
  }

  get snapshot(): ClientSnapshot {
    return this.store.get().snapshot;
  }

  update(change: Partial<ClientSnapshot>): void {
    const view = this.store.get();
    this.store.set({ ...view, snapshot: { ...view.snapshot, ...change } });
  }

  requestSummaryFocus(): void {
    const view = this.store.get();
    this.store.set({ ...view, summaryFocusRequest: view.summaryFocusRequest + 1 });
  }
}
