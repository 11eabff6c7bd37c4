// Prepares once per test run what the API tests share:
// - PostgreSQL: TEST_DATABASE_URL, or else a throwaway cluster from Debian's binaries;
// - PGlite: a migrated snapshot (creating a fresh PGlite costs seconds; loading one, a fraction);
// - the compiled service (services/api/dist, what `npm start` and `npm run cli` run), when stale.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import { wrapPglite } from '../../src/platform/db/connect';
import { PGLITE_EXTENSIONS } from '../../src/platform/db/pglite-extensions';
import { migrateDatabase } from '../../src/platform/db/migrate';
import { startJobQueue } from '../../src/platform/queue/job-queue';
import { listQueues } from '../../src/boot/workers';
import { buildCompiledService } from './process-stack';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
    pgliteSnapshot: string;
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

async function startThrowawayCluster(): Promise<{ url: string; stop: () => Promise<void> } | null> {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort().at(-1);
  if (!version) return null;
  const bin = path.join(root, version, 'bin');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'admissions-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const port = await findFreePort();
  // PostgreSQL refuses to run as root; run it as the postgres account Debian creates.
  const owner =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
          gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
        }
      : {};
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync'],
    { stdio: 'ignore', ...owner },
  );
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ];
  const server: ChildProcess = spawn(path.join(bin, 'postgres'), args, {
    stdio: 'ignore',
    ...owner,
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let i = 0; i < 100; i++) {
    try {
      execFileSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], {
        stdio: 'ignore',
      });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: async () => {
      // SIGINT is PostgreSQL's fast shutdown.
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function buildPgliteSnapshot(): Promise<string> {
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const database = wrapPglite(client);
  await migrateDatabase(database);
  const queue = await startJobQueue(database, pino({ level: 'silent' }), {
    queues: listQueues({ conversionTimeoutMs: 60_000 }),
  });
  await queue.stop({ graceful: false, wait: true });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'admissions-pglite-')), 'snapshot.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

export default async function setup(project: TestProject) {
  let stop: (() => Promise<void>) | undefined;
  let postgresUrl = process.env.TEST_DATABASE_URL ?? null;
  if (!postgresUrl) {
    const cluster = await startThrowawayCluster().catch(() => null);
    if (cluster) {
      postgresUrl = cluster.url;
      stop = cluster.stop;
    } else {
      console.warn(
        'PostgreSQL tests skipped: set TEST_DATABASE_URL or install Debian postgresql binaries.',
      );
    }
  }
  project.provide('postgresUrl', postgresUrl);
  project.provide('pgliteSnapshot', await buildPgliteSnapshot());
  // Once here rather than in each file: the CLI tests and the compiled-server tests all run dist/,
  // and a build started from two workers at once would make one wait for the other anyway.
  buildCompiledService();
  return async () => {
    await stop?.();
  };
}
