// A PostgreSQL cluster of our own that a fault test may stop and start again (issue #9). Never
// the machine's main cluster: its own data directory under the temp dir, its own port (5433–5439
// unless told otherwise) and its unix socket inside that directory.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /**
   * Stops the server with `pg_ctl stop -m immediate`: every backend is killed at once with no
   * checkpoint, as in a crash or a lost host. That is the harder case for "no acknowledged write
   * lost" (only what the WAL holds survives, replayed at the next start) and it drops every open
   * connection mid-query, which is what the API must survive. (`-m fast` would be a polite stop:
   * clients disconnected with 57P01 and a clean checkpoint.)
   */
  stop(): Promise<void>;
  /** Starts the stopped server again (crash recovery replays the WAL) and waits until it answers. */
  start(): Promise<void>;
  /** Stops the server if it runs and removes the cluster's directory. */
  remove(): Promise<void>;
}

/** The newest Debian PostgreSQL binaries, or null when none is installed. */
export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  return version ? path.join(root, version, 'bin') : null;
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Free ports on 127.0.0.1 from the range, lowest first (4369, Erlang's epmd, never). */
export async function findFreePorts(count: number, from: number, to: number): Promise<number[]> {
  const ports: number[] = [];
  for (let port = from; port <= to && ports.length < count; port++) {
    if (port !== 4369 && (await isPortFree(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`fewer than ${count} free ports in ${from}–${to}`);
  return ports;
}

/**
 * initdb + pg_ctl start. PostgreSQL refuses to run as root, so as root every command runs as the
 * `postgres` account Debian creates (runuser), and the directory is handed to it.
 */
export async function startPrivatePostgres(
  options: { ports?: [number, number] } = {},
): Promise<PrivatePostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const [from, to] = options.ports ?? [5433, 5439];
  const [port] = (await findFreePorts(1, from, to)) as [number];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'admissions-fault-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);

  await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // fsync off: the machine is not lost in these tests, only the PostgreSQL processes; a commit
  // is still in the WAL (the OS page cache) before the client hears of it, so an immediate stop
  // loses nothing acknowledged, and the disk is spared.
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c max_connections=200',
  ].join(' ');
  const start = async () => {
    // -w waits until the server accepts connections (recovery included).
    await pg('pg_ctl', [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-o',
      serverOptions,
    ]);
  };
  let running = false;
  await start();
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await pg('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', dataDir]);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async remove() {
      if (running) {
        await pg('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', dataDir]).catch(() => undefined);
        running = false;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
