// Uploads: each file question's conversion status, as its upload widget last reported it. Only
// the tab switch reads it (no switching while the left tab's file converts), so nothing renders
// from it and it needs no subscribers.
export class UploadStatuses {
  private readonly statuses = new Map<string, string>();

  report = (key: string, status: string): void => {
    this.statuses.set(key, status);
  };

  /** A file still converting (or waiting to) cannot be deleted yet. */
  isConverting(key: string | undefined): boolean {
    const status = key ? this.statuses.get(key) : undefined;
    return status === 'IN_PROGRESS' || status === 'UNPROCESSED';
  }
}
