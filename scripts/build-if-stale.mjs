#!/usr/bin/env node
// Builds what is stale, and only that: `node scripts/build-if-stale.mjs [web] [api]` (both when
// none is named). `npm start` runs it, so a restart with nothing changed starts in seconds
// instead of waiting ~20 s for Vite; the compiled service (services/api/dist) is rebuilt when its
// sources or the packages it bundles change. Each build's fingerprint is kept beside it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['packages/form/src', 'packages/api-contract/src', 'packages/answer-view/src'];
const TARGETS = {
  web: {
    label: 'Web app',
    dist: 'apps/web/dist',
    marker: 'index.html',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/build-tools',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/postcss.config.cjs',
      'apps/web/package.json',
      ...PACKAGES,
      'package-lock.json',
    ],
    build: ['run', '--silent', 'build', '-w', 'apps/web', '--', '--logLevel', 'warn'],
  },
  api: {
    label: 'Service',
    dist: 'services/api/dist',
    marker: 'server.js',
    inputs: [
      'services/api/src',
      'services/api/scripts/build.mjs',
      'services/api/package.json',
      ...PACKAGES,
      'package-lock.json',
    ],
    build: ['run', '--silent', 'build', '-w', 'services/api'],
  },
};

function listFiles(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full, { withFileTypes: true })
    .filter((item) => item.name !== 'node_modules')
    .flatMap((item) => listFiles(path.join(entry, item.name)));
}

function fingerprintSources(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(listFiles).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

function buildIfStale({ label, dist, marker, inputs, build }) {
  const stampFile = path.join(root, dist, '.source-fingerprint');
  const fingerprint = fingerprintSources(inputs);
  const hasBuild = existsSync(path.join(root, dist, marker));
  const built = hasBuild && existsSync(stampFile);
  if (built && readFileSync(stampFile, 'utf8').trim() === fingerprint) {
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

const named = process.argv.slice(2);
for (const name of named) {
  if (!(name in TARGETS)) {
    console.error(`unknown build target ${name} (web, api)`);
    process.exit(2);
  }
}
for (const name of named.length > 0 ? named : Object.keys(TARGETS)) buildIfStale(TARGETS[name]);
