/**
 * What one applicant's saved answers must read back as after a run in which saves may be refused,
 * time out or be cut off: per key, the last value a 2xx acknowledged, or a value sent after it
 * (a save that committed although its answer never arrived). An earlier value, or none, is a lost
 * acknowledged write. Shared by the load suite and the fault suite.
 */
export class AnswerLedger {
  private readonly acknowledged = new Map<string, string>();
  /** Values sent since the key's last acknowledgement, answered or not. */
  private readonly sentSince = new Map<string, Set<string>>();

  /** `saved`: answers already stored and acknowledged before the run. */
  constructor(saved: Record<string, string> = {}) {
    for (const [key, value] of Object.entries(saved)) this.acknowledged.set(key, value);
  }

  /** Call before the request leaves. */
  recordSent(patch: Record<string, string>): void {
    for (const [key, value] of Object.entries(patch)) {
      const since = this.sentSince.get(key) ?? new Set<string>();
      since.add(value);
      this.sentSince.set(key, since);
    }
  }

  /** Call when the request was answered 2xx. */
  recordAcknowledged(patch: Record<string, string>): void {
    for (const [key, value] of Object.entries(patch)) {
      this.acknowledged.set(key, value);
      this.sentSince.delete(key);
    }
  }

  /** Keys with an acknowledged value, the ones findLost compares. */
  get size(): number {
    return this.acknowledged.size;
  }

  findLost(
    stored: Record<string, string>,
  ): { key: string; expected: string; actual: string | undefined }[] {
    const lost: { key: string; expected: string; actual: string | undefined }[] = [];
    for (const [key, expected] of this.acknowledged) {
      const actual = stored[key];
      if (actual === expected || (actual !== undefined && this.sentSince.get(key)?.has(actual))) {
        continue;
      }
      lost.push({ key, expected, actual });
    }
    return lost;
  }
}
