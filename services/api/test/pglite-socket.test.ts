// The CLI reaches the running server's embedded database through a unix socket
// (src/platform/db/pglite-socket.ts) while the server keeps using the same PGlite. Seen in the
// browser suite: a CLI command failed with "Received unexpected rowDescription message from
// backend" — the server's own rows had been written into the CLI's socket — and nothing kept the
// server's statements out of a transaction the CLI had open. Here a pg client on the socket runs
// queries and a transaction while this process runs its own statements on the same engine.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRunningPgliteUrl, startPgliteSocket } from '../src/platform/db/pglite-socket';
import { runNamedOnPglite } from '../src/platform/db/prepared';

describe('the embedded database shared over its socket', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pglite-socket-'));
  let engine: PGlite;
  let stopSocket: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    engine = await PGlite.create();
    await engine.exec('CREATE TABLE notes (id int PRIMARY KEY, body text)');
    stopSocket = await startPgliteSocket(engine, dataDir);
    url = (await findRunningPgliteUrl(dataDir))!;
  });
  afterAll(async () => {
    await stopSocket?.();
    await engine?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** This process's own statements, back to back, the ways the service runs them. */
  function runServerStatements(until: () => boolean) {
    let seen = 0;
    const done = (async () => {
      for (let i = 0; !until(); i++) {
        const [named] = await runNamedOnPglite<{ n: number }>(
          engine,
          'server_count',
          'SELECT count(*)::int AS n FROM notes WHERE id > $1',
          [-1],
        );
        const { rows } = await engine.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM notes WHERE id <> $1',
          [i],
        );
        seen = Math.max(seen, named?.n ?? 0, rows[0]?.n ?? 0);
        // As requests do: each statement starts from an event, so the socket gets its turns.
        await nextTurn();
      }
    })();
    return { done, seen: () => seen };
  }

  it('serves four CLI commands at once, each holding two connections', async () => {
    // A CLI command's pool: one connection holds the migration's advisory lock, one runs the
    // statements. Four commands at once opened eight; the socket took four and reset the rest.
    const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: url }));
    try {
      const answers = await Promise.all(
        clients.map(async (client, i) => {
          await client.connect();
          const { rows } = await client.query<{ n: number }>('SELECT $1::int AS n', [i]);
          return rows[0]?.n;
        }),
      );
      expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    }
  });

  it('answers each socket query with its own rows while the server runs statements', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let stop = false;
    const server = runServerStatements(() => stop);
    const mismatches: string[] = [];
    try {
      for (let n = 0; n < 400; n++) {
        const { rows } = await client.query<{ n: number; t: string }>(
          'SELECT $1::int AS n, $2::text AS t',
          [n, `x${n}`],
        );
        if (rows.length !== 1 || rows[0]!.n !== n || rows[0]!.t !== `x${n}`) {
          mismatches.push(JSON.stringify(rows));
        }
      }
    } finally {
      stop = true;
      await server.done;
      await client.end();
    }
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('keeps the server out of a transaction the socket client has open', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let stop = false;
    let server: ReturnType<typeof runServerStatements> | undefined;
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'not yet']);
      server = runServerStatements(() => stop);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await client.query('ROLLBACK');
      stop = true;
      await server.done;
    } finally {
      stop = true;
      await server?.done;
      await client.end();
    }
    // The row never existed outside the client's transaction.
    expect(server!.seen()).toBe(0);
    const { rows } = await engine.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
    expect(rows[0]!.n).toBe(0);
  }, 60_000);

  it('runs a socket query after a transaction the server has open, never inside it', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => (finish = resolve));
      const serverTransaction = engine.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [2, 'server, uncommitted']);
        entered();
        await gate;
        await tx.query('DELETE FROM notes WHERE id = $1', [2]);
      });
      await inside;
      const answer = client.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
      await new Promise((resolve) => setTimeout(resolve, 100));
      finish();
      await serverTransaction;
      expect((await answer).rows[0]!.n).toBe(0);
    } finally {
      await client.end();
    }
  }, 30_000);
});
