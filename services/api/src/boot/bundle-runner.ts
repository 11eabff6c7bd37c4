// Runs a CommonJS bundle through vm.Script with a V8 code cache (boot/server-loader.ts says why):
// the one API on Node 20 that takes cached data for a script.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { mapBundleStackTraces } from './bundle-stack-traces';

/** Where the cache of a bundle is kept: beside it. */
export function codeCachePath(bundle: string): string {
  return `${bundle}.cache`;
}

function compileBundle(bundle: string, cachedData: Buffer | undefined): vm.Script {
  // Node's own CommonJS wrapper, on a line of its own so that positions in the file (and through
  // the map, in the TypeScript) stay what they are.
  return new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {\n${readFileSync(bundle, 'utf8')}\n})`,
    {
      filename: bundle,
      lineOffset: -1,
      ...(cachedData ? { cachedData } : {}),
    },
  );
}

/** The build's step: compiles the bundle as runBundle will and keeps V8's cache of it. */
export function writeCodeCache(bundle: string): void {
  writeFileSync(codeCachePath(bundle), compileBundle(bundle, undefined).createCachedData());
}

/**
 * Runs the bundle as Node would run it as a CommonJS module, from its cache when V8 accepts it
 * (same Node, same V8 flags); otherwise V8 compiles it as usual. Returns whether the cache was used.
 */
export function runBundle(bundle: string): { cacheUsed: boolean } {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCachePath(bundle));
  } catch {
    cachedData = undefined;
  }
  const script = compileBundle(bundle, cachedData);
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
