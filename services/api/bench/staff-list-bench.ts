// The staff applications list (issue #18) on PostgreSQL with 50,000 applications: the list as
// GET /staff/api/applications runs it (listStaffApplications: per-status counts, total, one page),
// for the queries a reader types. PostgreSQL: TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres (a database of its own, created and dropped).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { StaffListQuery } from '@admissions/api-contract';
import { DEFAULT_PARTNER } from '@admissions/form';
import { openDatabase } from '../src/platform/db/connect';
import { migrateDatabase } from '../src/platform/db/migrate';
import { createStaffListLabels, listStaffApplications } from '../src/modules/staff/staff-list';
import { formatMs, percentile, reportBench, type BenchCell } from '../../../bench/report';

const APPLICATIONS = 50_000;
const ROUNDS = Number(process.env.STAFF_BENCH_ROUNDS ?? 150);
const WARM_UP_ROUNDS = 10;
const TARGET_P95_MS = 50;

// Accented names on purpose: the search must find them typed without accents.
const FIRST = [
  'Zoë',
  'José',
  'Ana',
  'Björn',
  'Chloé',
  'Liam',
  'Olivia',
  'Noah',
  'Emma',
  'Mateo',
  'Amara',
  'Wei',
  'Priya',
  'Søren',
  'Łukasz',
  'Hana',
  'Omar',
  'Grace',
  'Ada',
  'Kwame',
  'Inés',
  'Élodie',
  'Aarav',
  'Mia',
  'Yusuf',
  'Freya',
  'Diego',
  'Nia',
  'Ravi',
  'Sofía',
  'Tomás',
  'Leah',
];
const LAST = [
  'Østergaard',
  'Müller',
  'García',
  'Nguyễn',
  'Smith',
  'Johnson',
  'Okafor',
  'Kowalski',
  'Dubois',
  'Rossi',
  'Tanaka',
  'Hernández',
  'Brown',
  'Lovelace',
  'Hopper',
  'Åberg',
  'Çelik',
  'Novák',
  'Papadopoulos',
  'Fitzgerald',
  'Ødegård',
  'Schäfer',
  'López',
  'Kim',
  'Patel',
  'Singh',
  'Moreau',
  "O'Brien",
  'Jovanović',
  'Halvorsen',
  'Mbeki',
  'Castillo',
  'Wójcik',
  'Ferreira',
  'Lindqvist',
  'Yamamoto',
  'Bianchi',
];

const QUERIES: { label: string; query: StaffListQuery }[] = [
  { label: 'first page, newest submitted', query: {} },
  { label: 'status = submitted', query: { status: 'submitted' } },
  { label: 'q "ostergaard" (Østergaard)', query: { q: 'ostergaard' } },
  { label: 'q "zoe muller" (two words)', query: { q: 'zoe muller' } },
  { label: 'q "applicant4217" (e-mail part)', query: { q: 'applicant4217' } },
  {
    label: 'submitted in one month, by name',
    query: { status: 'submitted', from: '2026-10-01', to: '2026-10-31', sort: 'name_asc' },
  },
  { label: 'page 40 by name', query: { sort: 'name_asc', page: 40 } },
];

/** Seeds through a plain connection: the app's pool has a statement time-out meant for requests. */
async function seed(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const database = { executeSql: (text: string) => client.query(text) };
  const started = performance.now();
  const first = `ARRAY[${FIRST.map((n) => `'${n}'`).join(',')}]`;
  const last = `ARRAY[${LAST.map((n) => `'${n.replace("'", "''")}'`).join(',')}]`;
  await database.executeSql(`
    INSERT INTO users (email, password_hash, confirmed_at)
    SELECT 'applicant' || i || '@example.org', 'not-a-hash', now()
    FROM generate_series(1, ${APPLICATIONS}) AS i`);
  // A realistic row: the name keys plus some 40 other answers (so rows are as wide as real ones);
  // 60 % submitted over the last year, 20 % validating, 20 % started.
  await database.executeSql(`
    INSERT INTO applications (user_id, answer, web_status, submitted_at)
    SELECT u.id,
      jsonb_build_object(
        'first_name', (${first})[1 + (u.n * 7) % ${FIRST.length}],
        'last_name', (${last})[1 + (u.n * 13) % ${LAST.length}],
        'entry_term', CASE WHEN u.n % 3 = 0 THEN 'SP27' ELSE 'FA27' END,
        'applied_major', 'MAJOR' || (u.n % 40)
      ) || (SELECT jsonb_object_agg('question_' || k, md5(u.n::text || k)) FROM generate_series(1, 40) k),
      CASE WHEN u.n % 5 < 3 THEN '{started,validating,submitted}'::text[]
           WHEN u.n % 5 = 3 THEN '{started,validating}'::text[]
           ELSE '{started}'::text[] END,
      CASE WHEN u.n % 5 < 3 THEN now() - make_interval(mins => ((u.n * 37) % 525600)::int) END
    FROM (SELECT id, row_number() OVER (ORDER BY email) AS n FROM users) u`);
  await database.executeSql('VACUUM ANALYZE users');
  await database.executeSql('VACUUM ANALYZE applications');
  await client.end();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_staff_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.log(
      `PostgreSQL unreachable (${adminUrl}): ${(error as Error).message}; nothing measured.`,
    );
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  try {
    await migrateDatabase(database);
    const seedSeconds = await seed(url.toString());
    const { rows: version } = await database.executeSql('SHOW server_version');
    const labels = createStaffListLabels(DEFAULT_PARTNER);
    const samples = QUERIES.map(() => [] as number[]);
    const matches = QUERIES.map(() => 0);
    // Round-robin: every query kind sees the same moments of machine noise.
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      for (const [i, { query }] of QUERIES.entries()) {
        const t0 = performance.now();
        const result = await listStaffApplications(database.db, query, labels);
        const ms = performance.now() - t0;
        if (round >= WARM_UP_ROUNDS) samples[i]!.push(ms);
        matches[i] = result.total;
      }
    }
    const all = samples.flat();
    const rows: BenchCell[][] = QUERIES.map(({ label }, i) => [
      label,
      matches[i]!.toLocaleString('en-US'),
      formatMs(percentile(samples[i]!, 50)),
      formatMs(percentile(samples[i]!, 95)),
      percentile(samples[i]!, 95) < TARGET_P95_MS ? 'yes' : 'NO',
    ]);
    rows.push([
      'all',
      '',
      formatMs(percentile(all, 50)),
      formatMs(percentile(all, 95)),
      percentile(all, 95) < TARGET_P95_MS ? 'yes' : 'NO',
    ]);
    reportBench({
      id: 'staff-list',
      title: 'Staff applications list (`services/api`, issue #18)',
      command: 'npm run bench -w services/api -- staff-list',
      description:
        `${APPLICATIONS.toLocaleString('en-US')} applications seeded with SQL on PostgreSQL ` +
        `${String(version[0]?.server_version)} (names with accents, about 40 other answers each; ` +
        '60 % submitted over a year, 20 % validating, 20 % started), then VACUUM ANALYZE. Each ' +
        'sample is one `listStaffApplications` call as GET /staff/api/applications makes it ' +
        '(per-status counts and total, then one page of 25, no HTTP), the query kinds in ' +
        `round-robin, ${ROUNDS} rounds after ${WARM_UP_ROUNDS} warm-up ones. Target: p95 under ` +
        `${TARGET_P95_MS} ms.`,
      tables: [{ columns: ['query', 'matches', 'p50', 'p95', `p95 < ${TARGET_P95_MS} ms`], rows }],
      notes: [`Seeding and VACUUM ANALYZE: ${seedSeconds.toFixed(1)} s.`],
    });
  } finally {
    await database.close();
    if (process.env.STAFF_BENCH_KEEP) console.log(`kept ${url.toString()}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
