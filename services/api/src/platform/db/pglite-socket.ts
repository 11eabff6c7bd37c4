import { existsSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { protocol, type PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// PGlite can be opened by one process only. While the server holds it, the CLI reaches the
// same database over this unix socket, named so that libpq/pg find it with host=DATA_DIR.
const SOCKET_NAME = '.s.PGSQL.5432';
/**
 * Connections the socket takes at once; one more is reset by Node before a word is said. A CLI
 * command holds two (its migration's advisory lock, and the statements), so four commands run
 * together needed eight where four were allowed: one in two such bursts failed "read ECONNRESET".
 * The engine runs one statement at a time whatever the number, so more only wait their turn.
 */
const MAX_SOCKET_CONNECTIONS = 16;

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
  const server = new PGLiteSocketServer({
    db: holdEngineForBatches(client),
    path: socketPath,
    maxConnections: MAX_SOCKET_CONNECTIONS,
  });
  await server.start();
  return () => server.stop();
}

/**
 * Messages inside a client's extended-query batch (Parse, Bind, Describe, Execute, Close, Flush,
 * CopyData): the batch goes on after them. Any other message — Sync, a simple Query, the start-up
 * message, Terminate — ends it.
 */
const BATCH_GOES_ON = new Set(
  ['P', 'B', 'D', 'E', 'C', 'H', 'd'].map((type) => type.charCodeAt(0)),
);

/**
 * PGlite as the socket server sees it, so that a socket client's batch runs alone and gets only
 * its own answers. The socket server takes the engine for one protocol message at a time; between a CLI's Parse, Bind, Describe,
 * Execute and Sync, this process's own statements ran and replaced the unnamed statement and
 * portal the CLI was using — it then read another statement's rows ("Received unexpected
 * rowDescription message from backend"), and this process's queries could run inside a
 * transaction the CLI had open. Here the engine is taken at a batch's first message and given
 * back after its Sync (or a simple query), unless a transaction is still open; while it is held,
 * the socket server reports a transaction, which makes it take only that client's messages.
 */
function holdEngineForBatches(client: PGlite): PGlite {
  let release: (() => void) | null = null;
  let lastType = 0;
  // Both of PGlite's locks, in the order its own query() takes them: the transaction lock keeps a
  // socket batch out of a transaction this process has open (and waits for it to end), the query
  // lock keeps this process's statements out of the batch.
  const take = () =>
    new Promise<void>((taken) => {
      void client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(
          () =>
            new Promise<void>((given) => {
              release = given;
              taken();
            }),
        ),
      );
    });
  const giveBack = () => {
    const give = release;
    release = null;
    give?.();
  };
  const runHeld = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (!release) await take();
    try {
      const result = await fn();
      if (!BATCH_GOES_ON.has(lastType) && !client.isInTransaction()) giveBack();
      return result;
    } catch (error) {
      // The socket server stops that client on an error: never keep the engine for it.
      giveBack();
      throw error;
    }
  };
  const facade = {
    get waitReady() {
      return client.waitReady;
    },
    // Only the socket's own hold: a transaction of this process is not a socket client's, and
    // reporting it made the socket server wait for a client that had nothing more to send while
    // another client's query sat in its queue.
    isInTransaction: () => release !== null,
    runExclusive: runHeld,
    // Not PGlite's execProtocolRawStream: it leaves its output callback set after the message, so
    // this process's next execProtocol wrote its rows into the CLI's socket. The raw call collects
    // the answer and hands it over here.
    async execProtocolRawStream(
      message: Uint8Array,
      options: { onRawData: (data: Uint8Array) => void },
    ) {
      lastType = message[0] ?? 0;
      const data = await client.execProtocolRaw(message);
      if (data.length > 0) options.onRawData(data);
    },
    // A client gone mid-batch or mid-transaction: roll back and give the engine back.
    exec: (sql: string) =>
      runHeld(async () => {
        lastType = 'Q'.charCodeAt(0);
        await client.execProtocol(protocol.serialize.query(sql));
      }),
  };
  return facade as unknown as PGlite;
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
