// Lookup latency with 100,000 generated high schools, on PostgreSQL and on PGlite.
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres (a database of its
// own is created and dropped). Target: p95 under 20 ms on PostgreSQL (issue #5).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, wrapPglite, type Database } from '../src/db/connect';
import { migrateDatabase } from '../src/db/migrate';
import { PGLITE_EXTENSIONS } from '../src/db/pglite-extensions';
import { upsertLookupRows, type ImportRow } from '../src/lookup/lookup-import';
import { QUERIES, WARM_UP, generateQueries, generateSchools } from './lookup-bench-data';
import { searchSchools } from '../src/lookup/school-lookup';

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function measure(label: string, database: Database, rows: ImportRow[]): Promise<void> {
  await migrateDatabase(database);
  const started = performance.now();
  await upsertLookupRows(database, 'hs_ceeb', rows, 'import');
  await database.executeSql('ANALYZE lookup_high_schools');
  const loadSeconds = (performance.now() - started) / 1000;
  const queries = generateQueries(rows);
  const times: { kind: string; ms: number }[] = [];
  for (const [i, query] of queries.entries()) {
    const t0 = performance.now();
    await searchSchools(database, 'hs_ceeb', query.text, 5);
    if (i >= WARM_UP) times.push({ kind: query.kind, ms: performance.now() - t0 });
  }
  const line = (kind: string, ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(2).padStart(7);
    return `  ${kind.padEnd(8)} n=${String(sorted.length).padStart(3)}  p50 ${f(percentile(sorted, 50))} ms  p95 ${f(percentile(sorted, 95))} ms  max ${f(sorted.at(-1) ?? NaN)} ms`;
  };
  console.log(`${label}: ${rows.length} schools loaded in ${loadSeconds.toFixed(1)} s`);
  console.log(
    line(
      'all',
      times.map((t) => t.ms),
    ),
  );
  for (const kind of ['prefix', 'word', 'typo', 'miss']) {
    console.log(
      line(
        kind,
        times.filter((t) => t.kind === kind).map((t) => t.ms),
      ),
    );
  }
}

async function benchPostgres(rows: ImportRow[]): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_lookup_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL skipped (${adminUrl} unreachable: ${(error as Error).message})`);
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  try {
    const { rows: version } = await database.executeSql('SHOW server_version');
    await measure(`PostgreSQL ${String(version[0]?.server_version)}`, database, rows);
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function benchPglite(rows: ImportRow[]): Promise<void> {
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  const database = wrapPglite(client);
  try {
    await measure('PGlite 0.5 (in memory)', database, rows);
  } finally {
    await database.close();
  }
}

const rows = generateSchools();
console.log(
  `lookup-bench: ${QUERIES} searches (after ${WARM_UP} warm-up) on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`,
);
await benchPostgres(rows);
await benchPglite(rows);
