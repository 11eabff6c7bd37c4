import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './pglite-extensions';

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

/**
 * PGlite's start runs a great deal of PostgreSQL's WebAssembly once (catalog loading, the
 * extension); at V8's default budget much of that code is recompiled by TurboFan in the background
 * and never run again — ~0.35 s of CPU at every start on a 2-core machine, competing with the start
 * itself. Ten times the budget keeps the optimizing compiler for the code queries keep running
 * (it reaches the budget within the first second of steady use). Takes effect for modules compiled
 * after it; V8 11 (Node 20) names the flag so.
 */
function delayWasmTierUp(): void {
  v8.setFlagsFromString('--wasm-tiering-budget=18000000');
}
