import type { StorageDriver } from './storage-driver';

/**
 * Walks `prefixes` of the store in pages of 500 and hands `remove` every object last written
 * before `before` that `listReferenced` does not name: what a crash between storing an object and
 * recording it left behind. Objects written after `before` may still be about to get their row.
 * Returns how many were handed over.
 */
export async function removeUnreferencedObjects(
  storage: StorageDriver,
  prefixes: string[],
  options: {
    before: Date;
    listReferenced: (keys: string[]) => Promise<Set<string>>;
    remove: (keys: string[]) => Promise<void>;
  },
): Promise<number> {
  const cutoff = options.before.getTime();
  let removed = 0;
  for (const prefix of prefixes) {
    let page: string[] = [];
    const flush = async () => {
      const referenced = await options.listReferenced(page);
      const orphans = page.filter((key) => !referenced.has(key));
      await options.remove(orphans);
      removed += orphans.length;
      page = [];
    };
    for await (const object of storage.list(prefix)) {
      if (object.modifiedAt.getTime() > cutoff) continue;
      page.push(object.key);
      if (page.length >= 500) await flush();
    }
    if (page.length > 0) await flush();
  }
  return removed;
}

/**
 * Deletes `keys` one by one; a delete that fails is reported to `onError` and the rest go on (a
 * sweep's next run tries it again).
 */
export async function deleteObjectsQuietly(
  storage: StorageDriver,
  keys: readonly string[],
  onError: (error: unknown) => void,
): Promise<void> {
  for (const key of keys) await storage.delete(key).catch(onError);
}
