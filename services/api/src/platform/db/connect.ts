import { createHash } from 'node:crypto';
import { securePrivateDataDir } from '../lib/private-data-dir';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { openPgliteFiles, pgliteDir } from './open-pglite';
import { countPreparedOnPglite, runNamedOnPglite } from './prepared';

/** Statements of the job queue prepared on PGlite at most (see executeSql). */
const MAX_PREPARED_QUEUE_STATEMENTS = 256;

interface Rows<Row> {
  rows: Row[];
}
/** What `execute()` answers on both drivers: node-postgres's QueryResult and PGlite's Results. */
interface RowsResult extends PgQueryResultHKT {
  type: Rows<this['row']>;
}

/**
 * Where a query runs: the database, or a transaction open on it (drizzle's transaction is a
 * database of its own), on either driver. A function that takes a Db works inside a caller's
 * transaction as well as outside one. No schema is registered: the relational `db.query` API is
 * not used, so the platform needs no module's tables (each module owns its own).
 */
export type Db = PgDatabase<RowsResult>;

/**
 * The database itself, never a transaction, on either driver: named prepared statements
 * (prepared.ts) and the migrator go to the driver's client behind it.
 */
export type RootDb = Db & { readonly $client: PGlite | pg.Pool };

export interface SqlResult {
  rows: Record<string, unknown>[];
}

/** The database behind the app, whichever driver: drizzle for queries, raw SQL for pg-boss. */
export interface Database {
  driver: 'pglite' | 'postgres';
  /** The embedded engine, when driver is pglite (the CLI socket serves it). */
  pglite?: PGlite;
  db: RootDb;
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  /** Runs fn while holding a cluster-wide advisory lock (a no-op lock on single-process PGlite). */
  withAdvisoryLock<T>(lockId: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** An already open PGlite (tests load a migrated snapshot). */
  pglite?: PGlite;
  poolSize?: number;
  /** Called with the text of every statement drizzle sends (tests count reads with it). */
  logQuery?: (query: string) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl && !options.pglite) return openPostgres(options.databaseUrl, options);
  const client = options.pglite ?? (await createPglite(options.dataDir));
  return wrapPglite(client, options.logQuery);
}

async function createPglite(dataDir: string): Promise<PGlite> {
  const client = await openPgliteFiles(dataDir);
  // PGlite leaves the files it creates at open 0666, whatever the process's umask (a server's is
  // 077): only this walk makes them the service user's alone. (The server walks all of DATA_DIR
  // once it listens instead, and opens PGlite itself: startServices.)
  await securePrivateDataDir(pgliteDir(dataDir));
  return client;
}

const queryLogger = (logQuery: ((query: string) => void) | undefined) =>
  logQuery ? { logger: { logQuery: (query: string) => logQuery(query) } } : {};

export function wrapPglite(client: PGlite, logQuery?: (query: string) => void): Database {
  // PGlite runs one statement at a time; drizzle's NodePg and Pglite databases share the
  // PgDatabase query API, so the app sees one type.
  const db = drizzlePglite(client, queryLogger(logQuery));
  return {
    driver: 'pglite',
    pglite: client,
    db,
    async executeSql(text, values) {
      // pg-boss sends multi-statement scripts without parameters: those need exec().
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      }
      // pg-boss's statements have fixed texts (its job fetch, every worker's poll, costs ~6 ms
      // of the one engine through query(), which parses and plans it each time): prepared once
      // each, up to a bound in case some text ever varies.
      if (countPreparedOnPglite(client) < MAX_PREPARED_QUEUE_STATEMENTS) {
        const name = `q_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
        return {
          rows: await runNamedOnPglite<Record<string, unknown>>(client, name, text, values),
        };
      }
      const result = await client.query<Record<string, unknown>>(text, values);
      return { rows: result.rows };
    },
    withAdvisoryLock: (_lockId, fn) => fn(),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Fail fast when the database is away instead of queueing requests behind it.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
    application_name: 'admissions-api',
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, queryLogger(options.logQuery));
  return {
    driver: 'postgres',
    db,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[] | undefined);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    async withAdvisoryLock(lockId, fn) {
      // Session-level locks belong to one connection: hold that connection for the duration.
      const lockClient = await pool.connect();
      try {
        await lockClient.query('SELECT pg_advisory_lock($1)', [lockId]);
        return await fn();
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
        lockClient.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
