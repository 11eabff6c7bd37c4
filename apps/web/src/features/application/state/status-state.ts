// Status and submit: the docs/data-model.md client snapshot (web status, last page, login), the
// request to focus the missing-information summary after a failed submit, and whether the
// application is read-only because its round has closed (issue #29).
import { createStore, type Store } from './create-store';
import type { ClientSnapshot } from '../lib/client-snapshot';

export interface StatusView {
  snapshot: ClientSnapshot;
  /** Bumped when the missing-information summary should take focus (after a failed submit). */
  summaryFocusRequest: number;
  /** Set once the round has closed: the application reads only, with this message. */
  closed: ClosedState | null;
}

export interface ClosedState {
  /** The server's ROUND_CLOSED message, or the same sentence written from the rounds' clock. */
  message: string;
  /** From a refused write: the server's own words, which a message from the clock never replaces. */
  fromServer: boolean;
}

export class StatusState {
  readonly store: Store<StatusView>;

  constructor(snapshot: ClientSnapshot, closedMessage: string | null = null) {
    this.store = createStore<StatusView>({
      snapshot,
      summaryFocusRequest: 0,
      closed: closedMessage === null ? null : { message: closedMessage, fromServer: false },
    });
  }

  get isClosed(): boolean {
    return this.store.get().closed !== null;
  }

  /** The round closed: from then on the application reads only (there is no way back). */
  close(message: string, fromServer: boolean): void {
    const view = this.store.get();
    if (view.closed?.fromServer && !fromServer) return;
    if (view.closed?.message === message) return;
    this.store.set({ ...view, closed: { message, fromServer } });
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
