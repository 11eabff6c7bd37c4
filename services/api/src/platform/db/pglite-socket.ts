import { existsSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// PGlite can be opened by one process only. While the server holds it, the CLI reaches the
// same database over this unix socket, named so that libpq/pg find it with host=DATA_DIR.
const SOCKET_NAME = '.s.PGSQL.5432';

export function pgliteSocketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_NAME);
}

export async function startPgliteSocket(
  client: PGlite,
  dataDir: string,
): Promise<() => Promise<void>> {
  const socketPath = pgliteSocketPath(dataDir);
  // A socket left by a crashed server would make listen() fail.
  if (existsSync(socketPath) && !(await isSocketAlive(socketPath))) rmSync(socketPath);
  const server = new PGLiteSocketServer({ db: client, path: socketPath, maxConnections: 4 });
  await server.start();
  return () => server.stop();
}

function isSocketAlive(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A PostgreSQL URL for the running server's embedded database, or null when none is running. */
export async function findRunningPgliteUrl(dataDir: string): Promise<string | null> {
  const socketPath = pgliteSocketPath(dataDir);
  if (!existsSync(socketPath) || !(await isSocketAlive(socketPath))) return null;
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dataDir)}`;
}
