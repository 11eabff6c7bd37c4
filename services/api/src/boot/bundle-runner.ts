// Runs a CommonJS bundle through vm.Script with a V8 code cache (boot/server-loader.ts says why):
// the one API on Node 20 that takes cached data for a script.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { mapBundleStackTraces } from './bundle-stack-traces';

/** Where the cache of a bundle is kept: beside it. */
function codeCachePath(bundle: string): string {
  return `${bundle}.cache`;
}

/**
 * V8 checks a cache against the length of the source, not its content: a bundle edited in place
 * (a constant changed to one of the same length) would run the old code. So the cache begins with
 * the SHA-256 of the bundle it was made from (2–3 ms to check at a start).
 */
const HASH_BYTES = 32;

function hashBundle(code: Buffer): Buffer {
  return createHash('sha256').update(code).digest();
}

function compileBundle(bundle: string, code: Buffer, cachedData: Buffer | undefined): vm.Script {
  // Node's own CommonJS wrapper, on a line of its own so that positions in the file (and through
  // the map, in the TypeScript) stay what they are.
  return new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {\n${code.toString('utf8')}\n})`,
    {
      filename: bundle,
      lineOffset: -1,
      ...(cachedData ? { cachedData } : {}),
    },
  );
}

/** The build's step: compiles the bundle as runBundle will and keeps V8's cache of it. */
export function writeCodeCache(bundle: string): void {
  const code = readFileSync(bundle);
  const data = compileBundle(bundle, code, undefined).createCachedData();
  writeFileSync(codeCachePath(bundle), Buffer.concat([hashBundle(code), data]));
}

/** The cache made from exactly this bundle, if there is one. */
function readCodeCache(bundle: string, code: Buffer): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(codeCachePath(bundle));
  } catch {
    return undefined;
  }
  if (stored.length <= HASH_BYTES) return undefined;
  return stored.subarray(0, HASH_BYTES).equals(hashBundle(code))
    ? stored.subarray(HASH_BYTES)
    : undefined;
}

/**
 * Runs the bundle as Node would run it as a CommonJS module, from its cache when it was made from
 * this bundle and V8 accepts it (same Node, same V8 flags); otherwise V8 compiles it as usual.
 * Returns whether the cache was used.
 */
export function runBundle(bundle: string): { cacheUsed: boolean } {
  const code = readFileSync(bundle);
  const cachedData = readCodeCache(bundle, code);
  const script = compileBundle(bundle, code, cachedData);
  // `npm start` asks for TypeScript positions with --enable-source-maps.
  if (process.sourceMapsEnabled) mapBundleStackTraces(bundle);
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    path.dirname(bundle),
  );
  return { cacheUsed: cachedData !== undefined && script.cachedDataRejected !== true };
}
