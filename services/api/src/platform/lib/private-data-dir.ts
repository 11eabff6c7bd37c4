// DATA_DIR holds the embedded database, applicants' files, the outbox and the secret key: only
// the service's own user may read any of it. New files get it from the umask (PGlite creates its
// files with 0666 and lets the umask decide); a directory left by an older version is fixed here.
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes new files of this process private to its user. Not possible in a worker thread (Node
 * refuses process.umask there); the explicit modes of every writer still hold.
 */
export function restrictNewFiles(): void {
  try {
    process.umask(0o077);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_UNSUPPORTED_OPERATION') throw error;
  }
}

/**
 * Creates DATA_DIR 0700 or brings the folder itself to 0700: then no other user reaches anything
 * inside it, whatever the entries' own modes. Cheap, so it runs before anything else at start;
 * securePrivateDataDir, which walks every entry, may follow in the background.
 */
export async function closePrivateDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    await chmod(dataDir, PRIVATE_DIR_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Owned by another user: securePrivateDataDir reports it with the other entries.
    if (code !== 'EPERM' && code !== 'EACCES') throw error;
  }
}

/**
 * Creates DATA_DIR 0700, or brings an existing one to 0700 for directories and 0600 for files.
 * Returns the entries it could not change (owned by another user, as on some mounted volumes):
 * the caller warns rather than refuses to start.
 */
export async function securePrivateDataDir(dataDir: string): Promise<string[]> {
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const unfixed: string[] = [];
  const restrict = async (target: string, mode: number) => {
    try {
      await chmod(target, mode);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPERM' || code === 'EACCES') unfixed.push(target);
      else if (code !== 'ENOENT') throw error;
    }
  };
  const pending = [dataDir];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    await restrict(dir, PRIVATE_DIR_MODE);
    const entries = await readdir(dir, { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'EACCES') return [];
        throw error;
      },
    );
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      // Never follow a link out of DATA_DIR; lstat tells what is there now.
      const info = await lstat(full).catch(() => null);
      if (!info || info.isSymbolicLink()) continue;
      if (info.isDirectory()) pending.push(full);
      else if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) await restrict(full, PRIVATE_FILE_MODE);
    }
  }
  return unfixed;
}
