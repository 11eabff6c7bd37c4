// The data export's memory, per folder and receiving system: the content version
// (applications.version) of each application as the last data export wrote it, so
// `--incremental` writes only the applications whose version moved on since. Saved atomically
// once the data file is in place, so a run that stopped early changes nothing. A folder is an
// exporter: the staff area gives each exporter their own (DATA_DIR/staff-exports/<staff id>).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './state';
import { ExportFatalError } from './folder-lock';

const FORMAT = 1;

export interface DataExportState {
  format: typeof FORMAT;
  /** Application id → the version written. */
  applications: Record<string, number>;
}

/** `.data-export-state.json`, or `.data-export-state.<system>.json` for a mapped system. */
export function dataStateFile(folder: string, system: string | null): string {
  return path.join(folder, `.data-export-state${system ? `.${system}` : ''}.json`);
}

export async function loadDataState(file: string): Promise<DataExportState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { format: FORMAT, applications: {} };
    }
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<DataExportState>;
    if (parsed.format !== FORMAT || typeof parsed.applications !== 'object' || !parsed.applications)
      throw new Error('unknown format');
    return { format: FORMAT, applications: parsed.applications };
  } catch {
    throw new ExportFatalError(
      `${file} is not a state file this version understands; move it away to export everything again`,
    );
  }
}

export async function saveDataState(file: string, state: DataExportState): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(state));
}
