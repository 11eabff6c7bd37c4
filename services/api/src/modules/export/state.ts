// The export folder's memory: what was exported for each application (the content version it
// showed, the file and its SHA-256), so a rerun renders only what changed. Saved after every
// application, atomically (a temporary file renamed over the old one), so an interrupted run
// loses nothing it finished.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export const STATE_FILE = '.export-state.json';
const FORMAT = 1;

export interface ExportedApplication {
  /** applications.version of the content the PDF shows. */
  version: number;
  /** Path of the PDF relative to the export folder. */
  file: string;
  sha256: string;
  bytes: number;
  pages: number;
  /** Titles of the documents appended to the answers. */
  documents: string[];
  exportedAt: string;
}

export interface ExportState {
  format: typeof FORMAT;
  applications: Record<string, ExportedApplication>;
}

export class ExportStateError extends Error {}

export function emptyState(): ExportState {
  return { format: FORMAT, applications: {} };
}

export async function loadState(dir: string): Promise<ExportState> {
  let text: string;
  try {
    text = await readFile(path.join(dir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ExportState>;
    if (
      parsed.format !== FORMAT ||
      typeof parsed.applications !== 'object' ||
      !parsed.applications
    ) {
      throw new Error('unknown format');
    }
    return { format: FORMAT, applications: parsed.applications };
  } catch {
    throw new ExportStateError(
      `${path.join(dir, STATE_FILE)} is not a state file this version understands; ` +
        'move it away (or use --force) to export everything again',
    );
  }
}

/** Writes `bytes` to `file` through a temporary file in the same folder and a rename. */
export async function writeFileAtomic(file: string, bytes: Uint8Array | string): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'w', 0o640);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Saves one after another, never two at once: a save asked for while one is being written is
 * folded into the next write (which serializes the state as it is then), so the state file keeps
 * up with the renders without rewriting it once per application when they finish together.
 */
export function createStateWriter(dir: string, state: ExportState) {
  const file = path.join(dir, STATE_FILE);
  let dirty = false;
  let running: Promise<void> | null = null;
  return {
    state,
    /** Resolves once a write that includes the state as it is now has landed. */
    save(): Promise<void> {
      dirty = true;
      running ??= (async () => {
        try {
          while (dirty) {
            dirty = false;
            await writeFileAtomic(file, JSON.stringify(state, null, 1));
          }
        } finally {
          running = null;
        }
      })();
      return running;
    },
  };
}
