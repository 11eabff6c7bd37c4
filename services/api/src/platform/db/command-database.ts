// Which database a CLI command works on, said out loud, and never a new empty one by accident:
// an operator who forgot DATA_DIR used to get a fresh database in the repository and then
// "No applicant has the e-mail address …", which reads as if the applicant did not exist.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { openDatabase, type Database } from './connect';
import { findRunningPgliteUrl } from './pglite-socket';

export class MissingDatabaseError extends Error {}

export interface CliDatabaseTarget {
  /** A PostgreSQL URL (the server's socket for the embedded database), or null for the files. */
  url: string | null;
  viaServer: boolean;
  description: string;
}

/** Where a PostgreSQL URL points, without its credentials. */
export function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL database "${parsed.pathname.slice(1) || 'postgres'}" on ${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/**
 * Finds the database a reading command should open. On the embedded default it must already
 * exist: through the running server's socket, or as files under DATA_DIR/db.
 */
export async function findCliDatabase(
  config: Config,
  options: { mustExist: boolean },
): Promise<CliDatabaseTarget> {
  if (config.databaseUrl) {
    return {
      url: config.databaseUrl,
      viaServer: false,
      description: describePostgres(config.databaseUrl),
    };
  }
  const dbDir = path.join(config.dataDir, 'db');
  const viaServer = await findRunningPgliteUrl(config.dataDir);
  if (viaServer) {
    return {
      url: viaServer,
      viaServer: true,
      description: `the embedded database in ${dbDir} (through the running server)`,
    };
  }
  if (options.mustExist && !existsSync(path.join(dbDir, 'PG_VERSION'))) {
    throw new MissingDatabaseError(
      `There is no database in ${dbDir}, and this command does not create one. ` +
        'Set DATA_DIR to the data folder of the server (or DATABASE_URL to its PostgreSQL database) and run it again.',
    );
  }
  return { url: null, viaServer: false, description: `the embedded database in ${dbDir}` };
}

let heldNote: string | undefined;

/**
 * "Database: …" on stderr, for a person at a terminal. With stdout piped or redirected (a script
 * reading the command's output) nothing extra is said unless the command fails: the note is held
 * for `sayHeldCliDatabaseNote`, because then it tells which data folder was the wrong one.
 */
export function noteCliDatabase(
  target: CliDatabaseTarget,
  io: { stdout: { isTTY?: boolean }; stderr: { write(text: string): unknown } } = process,
): void {
  const note = `Database: ${target.description}\n`;
  if (io.stdout.isTTY) io.stderr.write(note);
  else heldNote = note;
}

/** The failure path: the note a piped run held back, if any. */
export function sayHeldCliDatabaseNote(stderr: { write(text: string): unknown } = process.stderr) {
  if (heldNote) stderr.write(heldNote);
  heldNote = undefined;
}

export async function openCliDatabaseAt(
  config: Config,
  target: CliDatabaseTarget,
  poolSize = 2,
): Promise<Database> {
  return openDatabase({ databaseUrl: target.url, dataDir: config.dataDir, poolSize });
}
