// Data export benchmark (issue #31): `npm run cli -- export-data` over 10,000 submitted
// applications on PostgreSQL, in each format, beside the PDF export's rate measured in the same
// run on the same database, with the command's peak memory against an export of 1,000 (flat
// memory: the file is streamed, never held). Each run is the real command in its own process, the
// compiled one `npm run cli` runs (dist/cli.js, built first when stale), timed from start to exit
// (start-up included); "after start-up" is the rate its last progress line reports, counted from
// the database being open.
// Seeding: 200 applications of the shared fixtures through seedApplications (documents included,
// for the PDF export), then copied in SQL up to the count (new accounts and ids, the same answers
// and sealed identifiers), each a second apart in submission time.
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres (a database of its
// own, created and dropped); storage on local disk in a temporary DATA_DIR.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/platform/db/connect';
import { migrateDatabase } from '../src/platform/db/migrate';
import { loadSecrets } from '../src/platform/lib/crypto';
import { systemClock } from '../src/platform/lib/clock';
import { createStorage } from '../src/platform/storage/create-storage';
import { seedApplications } from '../test/support/seed-applications';
import { reportBench } from '../../../bench/report';

const COUNT = Number(process.argv[2] ?? 10_000);
const BASELINE = Math.min(1_000, COUNT);
const SEEDED = Math.min(200, COUNT);
const PDF_SAMPLE = Number(process.argv[3] ?? 200);
/** The JavaScript heap limit of the capped run (MiB). */
const HEAP_CAP_MIB = 96;
const apiDir = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FIRST_SUBMISSION = Date.UTC(2026, 10, 1, 12, 0, 0);

async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Resident memory of a live process, from /proc (MiB); NaN once it is gone. */
function rssMiB(pid: number | undefined): number {
  const file = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(file)) return NaN;
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

interface Timed {
  seconds: number;
  stdout: string;
  stderr: string;
  peakMiB: number;
  /** Peak memory in each quarter of the records written (from the progress lines' times). */
  quarterPeaksMiB: number[];
}

async function timedCli(args: string[], env: Record<string, string>): Promise<Timed> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/cli.js', ...args], {
    cwd: apiDir,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  let stdout = '';
  let stderr = '';
  // When each progress line came ([done/total]), and the memory every 50 ms.
  const progress: { at: number; share: number }[] = [];
  const samples: { at: number; mib: number }[] = [];
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const [, done, total] of d.toString().matchAll(/\[(\d+)\/(\d+)\]/g)) {
      progress.push({ at: performance.now(), share: Number(done) / Number(total) });
    }
  });
  let peakMiB = 0;
  const sampler = setInterval(() => {
    const now = rssMiB(child.pid);
    if (Number.isNaN(now)) return;
    peakMiB = Math.max(peakMiB, now);
    samples.push({ at: performance.now(), mib: now });
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args[0]} exited ${code}:\n${stdout}${stderr}`);
  const quarterPeaksMiB = [0.25, 0.5, 0.75, 1].map((upTo, q) => {
    const from = q === 0 ? started : (progress.find((p) => p.share >= upTo - 0.25)?.at ?? NaN);
    const to = progress.find((p) => p.share >= upTo)?.at ?? NaN;
    const inQuarter = samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.mib);
    return inQuarter.length > 0 ? Math.max(...inQuarter) : NaN;
  });
  return { seconds, stdout, stderr, peakMiB, quarterPeaksMiB };
}

async function dataExport(args: string[], env: Record<string, string>, out: string) {
  const run = await timedCli(['export-data', '--out', out, ...args], env);
  const written = Number(/(\d+) written/.exec(run.stdout)?.[1] ?? NaN);
  const rates = [...run.stderr.matchAll(/\] (\d+) records\/s/g)];
  return {
    ...run,
    written,
    perSecond: written / run.seconds,
    steady: Number(rates.at(-1)?.[1] ?? NaN),
    megabytes: statSync(out).size / 1024 ** 2,
  };
}

// What `npm run cli` does before it runs the command.
execFileSync(process.execPath, ['../../scripts/build-if-stale.mjs', 'api'], {
  cwd: apiDir,
  stdio: 'inherit',
});
const name = `data_export_bench_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'data-export-bench-'));
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir };
await admin(`CREATE DATABASE ${name}`);
try {
  const config = loadConfig({ ...env });
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir, poolSize: 4 });
  await migrateDatabase(database);
  const secrets = await loadSecrets(null, dataDir);
  const storage = await createStorage(config, secrets.hmacKey, systemClock);
  const seedStarted = performance.now();
  const originals = await seedApplications(
    { db: database.db, storage, encryptionKey: secrets.encryptionKey },
    { count: SEEDED, submittedAt: (i) => new Date(FIRST_SUBMISSION + i * 1000) },
  );
  // The copies: the originals' answers, sealed identifiers, counts and tabs under new accounts.
  await database.db.execute(sql`
    WITH src AS (
      SELECT a.*, row_number() OVER (ORDER BY a.submitted_at, a.id) AS n FROM applications a
    ), gen AS (
      SELECT g, gen_random_uuid() AS id FROM generate_series(${SEEDED + 1}::int, ${COUNT}::int) g
    ), accounts AS (
      INSERT INTO users (id, email, password_hash, confirmed_at)
      SELECT id, 'copy' || g || '@example.edu', 'seeded-without-a-password', now() FROM gen
    )
    INSERT INTO applications (id, user_id, round_code, answer, sensitive, add_another, tabs,
      web_status, submitted_at, last_page)
    SELECT gen.id, gen.id, s.round_code, s.answer, s.sensitive, s.add_another, s.tabs,
      s.web_status, to_timestamp(${FIRST_SUBMISSION / 1000}::double precision + gen.g - 1),
      s.last_page
    FROM gen JOIN src s ON s.n = ((gen.g - 1) % ${SEEDED}) + 1`);
  await database.db.execute(sql`ANALYZE`);
  const notes = [
    `Seeding ${COUNT} submitted applications (${SEEDED} through the fixtures, the rest copied in ` +
      `SQL) took ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.`,
  ];
  await storage.close();
  await database.close();

  const folder = path.join(dataDir, 'data');
  const csv = await dataExport([], env, path.join(folder, 'all.csv'));
  const json = await dataExport([], env, path.join(folder, 'all.json'));
  const ndjson = await dataExport([], env, path.join(folder, 'all.ndjson'));
  // The first BASELINE submissions: the same command holding a tenth of the records.
  const until = new Date(FIRST_SUBMISSION + (BASELINE - 1) * 1000).toISOString();
  const baseline = await dataExport(
    ['--until', until],
    env,
    path.join(dataDir, 'baseline', 'some.csv'),
  );
  // Streaming, shown a second way: the JSON export again with V8's heap capped far below the file
  // (and below the 10,000 parsed applications, ~20 KB each): it could not finish holding either.
  const capped = await dataExport(
    [],
    { ...env, NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MIB}` },
    path.join(dataDir, 'capped', 'all.json'),
  );
  const unchanged = await dataExport(['--incremental'], env, path.join(folder, 'all.csv'));
  const sensitive = await dataExport(
    ['--include-sensitive', '--reason', 'benchmark'],
    env,
    path.join(dataDir, 'sensitive', 'all.csv'),
  );

  // The PDF export of a sample of the same applications (the originals, with their documents).
  const idsFile = path.join(dataDir, 'pdf-ids.txt');
  writeFileSync(
    idsFile,
    originals
      .slice(0, PDF_SAMPLE)
      .map((a) => `${a.id}\n`)
      .join(''),
  );
  const pdf = await timedCli(['export', '--out', path.join(dataDir, 'pdf'), '--ids', idsFile], env);
  const rendered = Number(/(\d+) rendered/.exec(pdf.stdout)?.[1] ?? NaN);
  const pdfSteady = Number([...pdf.stderr.matchAll(/\((\d+)\/min, ETA/g)].at(-1)?.[1] ?? NaN) / 60;

  const row = (
    label: string,
    run: Awaited<ReturnType<typeof dataExport>>,
    target = '≥ 2,000/s (#31)',
  ) => [
    label,
    `${run.written} in ${run.seconds.toFixed(1)} s`,
    `${run.perSecond.toFixed(0)}/s`,
    `${run.steady}/s`,
    `${run.megabytes.toFixed(0)} MB`,
    `${run.peakMiB.toFixed(0)} MiB`,
    target,
  ];
  const quarters = (run: Timed) => run.quarterPeaksMiB.map((m) => m.toFixed(0)).join(' / ');
  notes.push(
    `Memory: the command's peak resident memory in each quarter of the ${COUNT} records ` +
      `written was ${quarters(csv)} MiB (CSV) and ${quarters(json)} MiB (JSON), while the files ` +
      `grew to ${csv.megabytes.toFixed(0)} and ${json.megabytes.toFixed(0)} MB (written a piece ` +
      `at a time, never held whole). Exporting the first ${baseline.written} peaked at ` +
      `${baseline.peakMiB.toFixed(0)} MiB. With the JavaScript heap capped at ${HEAP_CAP_MIB} MiB ` +
      `(--max-old-space-size), the JSON export of all ${capped.written} still completed ` +
      `(${capped.megabytes.toFixed(0)} MB file, ${capped.perSecond.toFixed(0)} records/s).`,
    `--incremental with nothing changed read ${unchanged.written === 0 ? 'no' : unchanged.written} ` +
      `answers and took ${unchanged.seconds.toFixed(1)} s for ${COUNT} applications.`,
    `The PDF export in the same run: ${rendered} applications in ${pdf.seconds.toFixed(1)} s ` +
      `(${(rendered / pdf.seconds).toFixed(1)}/s, ${pdfSteady.toFixed(1)}/s after start-up), ` +
      `peak ${pdf.peakMiB.toFixed(0)} MiB in the command (its layout runs in sandbox children).`,
  );
  reportBench({
    id: 'data-export',
    title: 'Data export (`services/api`, issue #31)',
    command: 'npm run bench -w services/api -- data-export',
    description:
      `${COUNT} submitted applications on PostgreSQL (the shared answer fixtures, all six in ` +
      'turn). The real command in its own process (the compiled `dist/cli.js` that `npm run cli` ' +
      'runs), timed from start to exit (start-up included); "after start-up" is the rate its ' +
      'last progress line reports, from the ' +
      "database being open. Peak memory is the command's resident set, sampled every 50 ms. " +
      `Beside it, the PDF export (\`npm run cli -- export --ids\`) of ${PDF_SAMPLE} of the same ` +
      'applications in the same run.',
    tables: [
      {
        columns: [
          'export',
          'records',
          'records/s',
          'after start-up',
          'file',
          'peak memory',
          'target',
        ],
        rows: [
          row('CSV', csv),
          row('JSON', json),
          row('NDJSON', ndjson),
          row('CSV, SSNs decrypted and audited', sensitive),
          row(`CSV, the first ${BASELINE} (memory baseline)`, baseline, '— (start-up dominates)'),
          row(`JSON, heap capped at ${HEAP_CAP_MIB} MiB`, capped),
          [
            `PDF export, ${rendered} applications`,
            `${rendered} in ${pdf.seconds.toFixed(1)} s`,
            `${(rendered / pdf.seconds).toFixed(1)}/s`,
            `${pdfSteady.toFixed(1)}/s`,
            '—',
            `${pdf.peakMiB.toFixed(0)} MiB`,
            '≥ 1,000/min (#32)',
          ],
        ],
      },
    ],
    notes,
  });
} finally {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
}
