import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './pglite-extensions';
import { delayWasmTierUp } from './wasm-tiering';

/**
 * Opens (creating on first use) the embedded database in DATA_DIR/db. Kept apart from connect.ts,
 * which loads both drivers and drizzle: the server's entry point starts this before it loads the
 * rest of the service, so reading and compiling PGlite's WebAssembly overlaps with that.
 * PGlite leaves the files it creates 0666 whatever the umask: the caller walks db/ afterwards
 * (securePrivateDataDir); the closed DATA_DIR keeps others out meanwhile.
 */
export async function openPgliteFiles(dataDir: string): Promise<PGlite> {
  delayWasmTierUp();
  const dir = pgliteDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  return client;
}

export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'db');
}
