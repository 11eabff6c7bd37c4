// Lookup latency with 100,000 generated high schools, on PostgreSQL and on PGlite.
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres (a database of its
// own is created and dropped). Target: p95 under 20 ms on PostgreSQL (issue #5).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, wrapPglite, type Database } from '../src/platform/db/connect';
import { migrateDatabase } from '../src/platform/db/migrate';
import { PGLITE_EXTENSIONS } from '../src/platform/db/pglite-extensions';
import { upsertLookupRows, type ImportRow } from '../src/modules/lookup/lookup-import';
import { searchSchools } from '../src/modules/lookup/school-lookup';
import { formatMs, percentile, reportBench, type BenchCell } from '../../../bench/report';
import { QUERIES, WARM_UP, generateQueries, generateSchools } from './lookup-bench-data';

const KINDS = ['prefix', 'word', 'typo', 'miss'] as const;
const resultRows: BenchCell[][] = [];
const loadTimes: string[] = [];

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
  const pair = (ms: number[]) =>
    `${formatMs(percentile(ms, 50))} / ${formatMs(percentile(ms, 95))}`.replaceAll(' ms /', ' /');
  resultRows.push([
    label,
    pair(times.map((t) => t.ms)),
    ...KINDS.map((kind) => pair(times.filter((t) => t.kind === kind).map((t) => t.ms))),
    label.startsWith('PostgreSQL') ? 'p95 < 20 ms' : '—',
  ]);
  loadTimes.push(`${label}: ${loadSeconds.toFixed(1)} s`);
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
await benchPostgres(rows);
await benchPglite(rows);
reportBench({
  id: 'lookups',
  title: 'Lookups (`services/api`, issue #5)',
  command: 'npm run bench -w services/api -- lookup',
  description:
    `${rows.length.toLocaleString('en-US')} generated high schools, ${QUERIES} searches after ` +
    `${WARM_UP} warm-up ones, 5 results each, through \`searchSchools\` (no HTTP). Query mix: ` +
    '40 % name prefixes (1–12 characters), 30 % a later word of a name, 20 % a name with a typo, ' +
    '10 % misses. PostgreSQL gets a database of its own (created and dropped); PGlite runs in memory.',
  tables: [
    {
      columns: ['driver', 'all p50 / p95', ...KINDS.map((kind) => `${kind} p50 / p95`), 'target'],
      rows: resultRows,
    },
  ],
  notes: [`Loading the schools (upsert plus the word-index rebuild): ${loadTimes.join('; ')}.`],
});
