// --zip: one archive with the PDFs and the index files, streamed to disk (PDFs are already
// compressed, so they are stored; the index files are deflated) and renamed into place when whole.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

export interface ZipEntry {
  /** Path inside the archive (our own safe names only). */
  name: string;
  read: () => Promise<Uint8Array>;
  compress?: boolean;
}

export async function writeZip(
  file: string,
  entries: readonly ZipEntry[],
  mtime: Date,
): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const stream = createWriteStream(temp, { mode: 0o640 });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  let failure: Error | null = null;
  stream.on('error', (error) => (failure ??= error));
  const finished = new Promise<void>((resolve, reject) => {
    const zip = new Zip((error, chunk, final) => {
      if (error) {
        reject(error);
        return;
      }
      stream.write(chunk);
      if (final) stream.end(() => resolve());
    });
    void (async () => {
      try {
        await opened;
        for (const entry of entries) {
          const bytes = await entry.read();
          const item = entry.compress
            ? new ZipDeflate(entry.name, { level: 6 })
            : new ZipPassThrough(entry.name);
          item.mtime = mtime;
          zip.add(item);
          item.push(bytes, true);
          // Let the stream drain between large entries.
          if (stream.writableNeedDrain)
            await new Promise<void>((r) => stream.once('drain', () => r()));
        }
        zip.end();
      } catch (error) {
        zip.terminate();
        reject(error as Error);
      }
    })();
  });
  try {
    await finished;
    if (failure) throw failure;
    await rename(temp, file);
  } catch (error) {
    stream.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}
