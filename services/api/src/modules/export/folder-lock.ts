// What every export that writes into a folder needs: one export at a time per folder (two would
// overwrite each other's state), and the half-written files of a run that was killed removed.
import { open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../../platform/lib/process-alive';

/** Fatal problems (exit code 1): a busy or unwritable folder, an unreadable ids file… */
export class ExportFatalError extends Error {}

/** Takes `dir/lockName` for this process; the function it answers gives it back. */
export async function lockFolder(dir: string, lockName: string): Promise<() => Promise<void>> {
  const file = path.join(dir, lockName);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
        throw new ExportFatalError(`another export (process ${pid}) is writing to ${dir}`);
      }
      await rm(file, { force: true }); // left by a run that crashed
    }
  }
  throw new ExportFatalError(`could not lock ${dir}`);
}

/** Half-written files of a run that was killed (writeFileAtomic's and the writers' temporaries). */
export async function removeTemporaryFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (/^\..+\.[0-9a-f]{12}\.tmp$/.test(name)) await rm(path.join(dir, name), { force: true });
  }
}
