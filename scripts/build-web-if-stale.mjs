#!/usr/bin/env node
// `npm start` builds the SPA only when what it is built from changed since the last build: its own
// sources, the packages it bundles, and the lock file. A restart with nothing changed starts in
// seconds instead of waiting ~20 s for Vite. The fingerprint is kept beside the build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const stampFile = path.join(dist, '.source-fingerprint');
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/build-tools',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/postcss.config.cjs',
  'apps/web/package.json',
  'packages/form/src',
  'packages/api-contract/src',
  'packages/answer-view/src',
  'package-lock.json',
];

function listFiles(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full, { withFileTypes: true })
    .filter((item) => item.name !== 'node_modules')
    .flatMap((item) => listFiles(path.join(entry, item.name)));
}

function fingerprintSources() {
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

const fingerprint = fingerprintSources();
const built = existsSync(path.join(dist, 'index.html')) && existsSync(stampFile);
if (built && readFileSync(stampFile, 'utf8').trim() === fingerprint) {
  console.log('Web app: up to date (apps/web/dist).');
  process.exit(0);
}

const hasBuild = existsSync(path.join(dist, 'index.html'));
console.log(
  built
    ? 'Web app: sources changed, building…'
    : hasBuild
      ? 'Web app: building (the build in apps/web/dist does not say what it was made from)…'
      : 'Web app: building (first start)…',
);
const started = Date.now();
const result = spawnSync(
  'npm',
  ['run', '--silent', 'build', '-w', 'apps/web', '--', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stampFile, `${fingerprint}\n`);
console.log(`Web app: built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
