// What a build was made from, and one build at a time. `npm start` (build-if-stale.mjs) rebuilds
// a target whose fingerprint differs from its sources'; every build writes that fingerprint, so
// `npm run build` leaves nothing for the next start to redo. A build holds a lock file beside its
// output while it runs: a second build (`npm run cli` started while `npm start` builds) waits for
// the first instead of deleting and rewriting the files the first is writing (esbuild failed with
// `spawn ETXTBSY`).
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['packages/form/src', 'packages/api-contract/src', 'packages/answer-view/src'];

export const TARGETS = {
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

export function fingerprintSources(inputs) {
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

export function stampFileOf(target) {
  return path.join(root, target.dist, '.source-fingerprint');
}

/** Beside the output, not in it: a build deletes its output folder first. */
function lockFileOf(target) {
  return path.join(root, `${target.dist}.build-lock`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Waits while another live process builds `target` (a lock left by a dead one is ignored). */
export function waitForBuild(target, onWait) {
  const lock = lockFileOf(target);
  let told = false;
  for (;;) {
    let pid;
    try {
      pid = Number(readFileSync(lock, 'utf8'));
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return;
    if (!told) onWait?.();
    told = true;
    sleep(200);
  }
}

function readLockPid(lock) {
  try {
    return Number(readFileSync(lock, 'utf8'));
  } catch {
    return null;
  }
}

/** Runs `build` holding the target's lock; another build of it in progress is waited for first. */
export async function withBuildLock(target, build) {
  const lock = lockFileOf(target);
  let fd;
  for (;;) {
    try {
      fd = openSync(lock, 'wx');
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      waitForBuild(target, () => console.error(`${target.label}: waiting for another build…`));
      // A finished build removed its lock; one that died left it, naming a process that is gone
      // (or nothing, if it died between creating and writing it).
      const pid = readLockPid(lock);
      if (pid !== null && (pid > 0 ? !isAlive(pid) : Date.now() - statSync(lock).mtimeMs > 5000)) {
        rmSync(lock, { force: true });
      }
      if (pid === 0 || Number.isNaN(pid)) sleep(100);
    }
  }
  try {
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return await build();
  } finally {
    rmSync(lock, { force: true });
  }
}
