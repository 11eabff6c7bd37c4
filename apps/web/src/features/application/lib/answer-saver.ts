// A queue of answer patches: keystrokes merge into one pending patch, and saves run one after
// another so a slow request can never overwrite a newer value with an older one.
import { saveAnswers } from '../api/save-answers';

export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

export class AnswerSaver {
  private pending: Record<string, string> = {};
  private chain: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private state: SaveState = 'idle';
  private readonly listeners = new Set<() => void>();

  private onFailure: (error: unknown) => void = () => {};
  /** Set when the application can no longer change (its round closed): nothing is sent again. */
  private frozen = false;

  constructor(private readonly save: typeof saveAnswers = saveAnswers) {}

  getState = (): SaveState => this.state;

  /** Told about every failed save, e.g. to leave once the application is frozen (409). */
  setFailureHandler(handler: (error: unknown) => void): void {
    this.onFailure = handler;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  hasPending(): boolean {
    return Object.keys(this.pending).length > 0 || this.inFlight > 0;
  }

  queue(patch: Record<string, string>): void {
    if (this.frozen) return;
    Object.assign(this.pending, patch);
  }

  /**
   * The round closed: what is pending is dropped (the server refuses it), no save is sent again,
   * and the state is back to idle, so neither Retry nor the browser's leave warning keeps asking.
   */
  freeze(): void {
    this.frozen = true;
    this.pending = {};
    this.setState('idle');
  }

  /** Saves whatever is pending; resolves true once everything queued so far is on the server. */
  flush = (): Promise<boolean> => {
    if (this.frozen) return this.chain.then(() => true);
    const patch = this.pending;
    if (Object.keys(patch).length > 0) {
      this.pending = {};
      this.inFlight += 1;
      this.setState('saving');
      this.chain = this.chain.then(async () => {
        try {
          await this.save(patch);
          this.inFlight -= 1;
          if (this.inFlight === 0) this.setState('saved');
        } catch (error) {
          this.inFlight -= 1;
          if (this.frozen) return;
          // Keep the failed keys for Retry, under anything typed since.
          this.pending = { ...patch, ...this.pending };
          this.setState('error');
          // May freeze the queue (a closed round), which drops those keys again.
          this.onFailure(error);
        }
      });
    }
    return this.chain.then(() => this.state !== 'error');
  };

  private setState(next: SaveState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
