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
    Object.assign(this.pending, patch);
  }

  /** Saves whatever is pending; resolves true once everything queued so far is on the server. */
  flush = (): Promise<boolean> => {
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
          // Keep the failed keys for Retry, under anything typed since.
          this.pending = { ...patch, ...this.pending };
          this.setState('error');
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
