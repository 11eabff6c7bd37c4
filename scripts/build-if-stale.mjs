#!/usr/bin/env node
// Builds what is stale, and only that: `node scripts/build-if-stale.mjs [web] [api]` (both when
// none is named). `npm start` runs it, so a restart with nothing changed starts in seconds
// instead of waiting ~20 s for Vite; the compiled service (services/api/dist) is rebuilt when its
// sources or the packages it bundles change. Each build's fingerprint is kept beside it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TARGETS, fingerprintSources, root, stampFileOf, waitForBuild } from './build-stamp.mjs';

function buildIfStale(target, always) {
  const { label, dist, marker, inputs, build } = target;
  // A build in progress (another `npm start`, `npm run cli`, `npm run build`) is finished first;
  // what it made is then usually what these sources need.
  waitForBuild(target, () => console.error(`${label}: waiting for the build in progress…`));
  const stampFile = stampFileOf(target);
  const fingerprint = fingerprintSources(inputs);
  const hasBuild = existsSync(path.join(root, dist, marker));
  const built = hasBuild && existsSync(stampFile);
  if (!always && built && readFileSync(stampFile, 'utf8').trim() === fingerprint) {
    // Said to a person at a terminal only: `npm run cli -- … | jq` (stdout piped) stays quiet
    // unless something is actually built, which takes long enough to need saying.
    if (process.stdout.isTTY) console.error(`${label}: up to date (${dist}).`);
    return;
  }
  console.error(
    built
      ? `${label}: sources changed, building…`
      : hasBuild
        ? `${label}: building (the build in ${dist} does not say what it was made from)…`
        : `${label}: building (first start)…`,
  );
  const started = Date.now();
  // Everything on stderr: `npm run cli` builds first, and its stdout is the command's output.
  const result = spawnSync('npm', build, { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, `${fingerprint}\n`);
  console.error(`${label}: built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

// --always: build even what is up to date (`npm run build`), still writing the fingerprints.
const always = process.argv.includes('--always');
const named = process.argv.slice(2).filter((arg) => arg !== '--always');
for (const name of named) {
  if (!(name in TARGETS)) {
    console.error(`unknown build target ${name} (web, api)`);
    process.exit(2);
  }
}
for (const name of named.length > 0 ? named : Object.keys(TARGETS)) {
  buildIfStale(TARGETS[name], always);
}
