// Generated application PDFs no row records any more: written by a render whose process died
// before the row was updated, or left by an account that was deleted (its row goes with it).
import type { Logger } from 'pino';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import {
  deleteObjectsQuietly,
  removeUnreferencedObjects,
} from '../../platform/storage/unreferenced-objects';
import { APPLICATION_PDF_PREFIX } from './pdf-keys';
import { PDF_QUEUE } from './pdf-jobs';
import type { PdfStore } from './pdf-store';

/**
 * A PDF is written just before the transaction that records it. A render is taken back from a
 * dead worker after its job's expiry, so a blob older than two expiries plus a minute is no
 * render's work in progress.
 */
export const ORPHAN_PDF_GRACE_MS =
  2 * (PDF_QUEUE.options.expireInSeconds ?? 15 * 60) * 1000 + 60_000;

/** Removes every `applications/` object older than the grace period that no row refers to. */
export async function deleteOrphanApplicationPdfs(
  deps: { store: PdfStore; storage: StorageDriver; logger: Logger },
  now: Date,
): Promise<number> {
  return removeUnreferencedObjects(deps.storage, [APPLICATION_PDF_PREFIX], {
    before: new Date(now.getTime() - ORPHAN_PDF_GRACE_MS),
    listReferenced: (keys) => deps.store.listReferencedKeys(keys),
    remove: (keys) =>
      deleteObjectsQuietly(deps.storage, keys, (error) =>
        deps.logger.warn({ err: error }, 'could not remove an orphaned application PDF'),
      ),
  });
}
