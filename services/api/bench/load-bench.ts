// Load (issue #9): autocannon, 100 connections for 60 s, against two real API processes and one
// worker on PostgreSQL — 70% PUT /api/answer, 20% GET /api/profile, 10% lookups, one applicant
// session per connection — and in the same run the same settings against a bare Fastify route in
// two processes, then a read-back of every acknowledged answer.
//
//   npm run bench -w services/api -- load
//   LOAD_DURATION_S=10 LOAD_CONNECTIONS=20 npm run bench -w services/api -- load
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { formatMs, percentile, reportBench, type BenchCell } from '../../../bench/report';
import {
  createScratchDatabase,
  findFreePort,
  launchProcess,
  startProcessStack,
  waitUntilReady,
  type ManagedProcess,
} from '../test/support/process-stack';
import {
  LOAD_RATE_LIMIT_ENV,
  ROUTE_NAMES,
  importSchools,
  runLoad,
  seedApplicants,
  verifyAcknowledgedWrites,
} from '../test/support/load-run';

const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);
const SCHOOLS = 30_000;
const BARE_PATH = '/bare';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const autocannonVersion = (
  createRequire(import.meta.url)('autocannon/package.json') as { version: string }
).version;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

async function startBareServers(count: number) {
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-bare-'));
  const ports = await Promise.all(Array.from({ length: count }, () => findFreePort()));
  const servers: ManagedProcess[] = ports.map((port, i) =>
    launchProcess(
      `bare-${i + 1}`,
      ['bench/bare-fastify-server.ts'],
      {
        ...process.env,
        PORT: String(port),
      },
      logDir,
    ),
  );
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  await Promise.all(
    servers.map((server, i) =>
      waitUntilReady(server, async () => (await fetch(`${urls[i]}${BARE_PATH}`)).status === 200),
    ),
  );
  return {
    urls,
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}

function summaryRow(label: string, result: autocannon.Result, load: string): BenchCell[] {
  return [
    label,
    Math.round(result.requests.average),
    formatMs(result.latency.p50),
    formatMs(result.latency.p99),
    formatMs(result.latency.max),
    result.errors,
    result.timeouts,
    result.non2xx,
    result.requests.total,
    load,
  ];
}

const started = Date.now();
const database = await createScratchDatabase(adminUrl, 'load');
// Both at once; if either fails, whatever did start is stopped and the database dropped.
const [stackStart, bareStart] = await Promise.allSettled([
  startProcessStack({ databaseUrl: database.url, apis: 2, workers: 1, env: LOAD_RATE_LIMIT_ENV }),
  startBareServers(2),
]);
if (stackStart.status === 'rejected' || bareStart.status === 'rejected') {
  if (stackStart.status === 'fulfilled') await stackStart.value.stop();
  if (bareStart.status === 'fulfilled') await bareStart.value.stop();
  await database.drop();
  throw stackStart.status === 'rejected'
    ? stackStart.reason
    : (bareStart as PromiseRejectedResult).reason;
}
const stack = stackStart.value;
const bare = bareStart.value;
let exitCode = 0;
try {
  const startedIn = Date.now() - started;
  const timed = async <T>(work: Promise<T>): Promise<[T, number]> => {
    const start = Date.now();
    return [await work, Date.now() - start];
  };
  // Side by side: the import is mostly PostgreSQL, the seeding mostly argon2 in the API processes.
  const [[applicants, seededIn], [lookupTexts, importedIn]] = await Promise.all([
    timed(seedApplicants(stack, CONNECTIONS, { concurrency: 12 })),
    timed(importSchools(stack, SCHOOLS)),
  ]);

  console.log(`API: ${CONNECTIONS} connections for ${DURATION_S} s…`);
  const api = await runLoad({ applicants, durationS: DURATION_S, lookupTexts });
  const apiLoad = loadAverage();
  const check = await verifyAcknowledgedWrites(api.ledgers);
  await stack.stop();

  console.log(`Bare Fastify: ${CONNECTIONS} connections for ${DURATION_S} s…`);
  const bareResult = await autocannon({
    // Several URLs: connection i goes to url i mod n, as for the API.
    url: bare.urls.map((url) => `${url}${BARE_PATH}`) as unknown as string,
    connections: CONNECTIONS,
    duration: DURATION_S,
    pipelining: 1,
  });
  const bareLoad = loadAverage();

  const totalResponses = ROUTE_NAMES.reduce(
    (sum, name) => sum + [...api.routes.get(name)!.statuses.values()].reduce((a, b) => a + b, 0),
    0,
  );
  const routeRows = ROUTE_NAMES.map((name): BenchCell[] => {
    const stats = api.routes.get(name)!;
    const responses = [...stats.statuses.values()].reduce((a, b) => a + b, 0);
    const statuses = [...stats.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    return [
      name,
      responses,
      `${((100 * responses) / Math.max(1, totalResponses)).toFixed(1)} %`,
      statuses || '—',
      formatMs(percentile(stats.latencies, 50)),
      formatMs(percentile(stats.latencies, 99)),
    ];
  });
  const failed =
    api.result.errors + api.result.non2xx + check.lost.length > 0 ? ' — target missed' : '';
  if (failed) exitCode = 1;

  reportBench({
    id: 'load',
    title: 'Load: two API processes and a worker on PostgreSQL (`services/api`, issue #9)',
    command: 'npm run bench -w services/api -- load',
    description:
      `autocannon ${autocannonVersion} in the benchmark's own process, ${CONNECTIONS} connections ` +
      `for ${DURATION_S} s, one request in flight per connection, split evenly over two API ` +
      'processes (`node --import tsx src/boot/server.ts`, two ports: connection i goes to process ' +
      'i mod 2, as a balancer with keep-alive would) and one `npm run cli -- worker`, all on ' +
      `the machine's PostgreSQL (${adminUrl.replace(/\/\/[^@]*@/, '//')}, a database created ` +
      'and dropped for the run), `RUN_WORKER_IN_PROCESS=false`, `LOG_LEVEL=info`. Each ' +
      'connection is one applicant with its own session: signed up, confirmed with the code ' +
      'from the outbox and logged in through the real routes, holding a complete application ' +
      `(COMPLETE_FIXTURE); ${SCHOOLS.toLocaleString('en-US')} generated high schools are ` +
      'imported with `npm run cli -- lookup import`. Each request is drawn at random: 70% ' +
      '`PUT /api/answer` (one field changed, the patch `buildAnswerPatch` makes for the SPA; ' +
      'text answers get a new value each time), 20% `GET /api/profile`, 10% ' +
      '`GET /lookup/find?category=hs_ceeb&text=<2–9 first letters of a school>&max_results=5`. ' +
      'Then the same autocannon settings against a bare Fastify 5 route (`GET /bare` → ' +
      '`{"message":"ok"}`, no logger or plugins) in two processes (`bench/bare-fastify-server.ts`), ' +
      'with the API stopped. Latencies are autocannon’s (whole run, all routes); per-route ' +
      'figures are measured from building each request to its response. All load comes from ' +
      '127.0.0.1, so the per-IP limits are raised for the run with ' +
      Object.entries(LOAD_RATE_LIMIT_ENV)
        .map(([name, value]) => `\`${name}=${value}\``)
        .join(', ') +
      '; per-account rules (login throttling, sessions) are unchanged. After the run every ' +
      "applicant's answers are read back with `GET /api/profile` and compared with the last " +
      'value acknowledged (2xx) for each key.',
    tables: [
      {
        caption: `${CONNECTIONS} connections, ${DURATION_S} s, two processes each`,
        columns: [
          'server',
          'requests/s',
          'p50',
          'p99',
          'max',
          'errors',
          'timeouts',
          'non-2xx',
          'requests',
          'load average 1/5/15 min after',
          'target (issue #9)',
        ],
        rows: [
          [
            ...summaryRow('Admissions API (70/20/10 mix)', api.result, apiLoad),
            '0 errors, 0 non-2xx',
          ],
          [...summaryRow('Bare Fastify route', bareResult, bareLoad), 'reference'],
        ],
      },
      {
        caption: 'API requests by route',
        columns: ['route', 'responses', 'share', 'statuses', 'p50', 'p99'],
        rows: routeRows,
      },
      {
        caption: 'Acknowledged writes read back after the run (target: none lost)',
        columns: ['applicants', 'answer keys compared', 'lost'],
        rows: [[check.applicants, check.keys, check.lost.length]],
      },
    ],
    notes: [
      `Machine: ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
        `Node ${process.version}; autocannon, the two API processes, the worker and PostgreSQL ` +
        'share the cores, so requests per second is what this one machine does as a whole.',
      `Start-up of the stack (migrate, two API processes, worker): ${seconds(startedIn)}; ` +
        `seeding ${CONNECTIONS} applicants (sign-up, confirm, login, one complete save): ` +
        `${seconds(seededIn)}; importing the schools (at the same time): ${seconds(importedIn)}.`,
      'Seeding includes waiting for each confirmation e-mail; the send-email queue is worked ' +
        'in batches of 16, four sends at a time (`src/modules/mail/mail-jobs.ts`).',
      ...(check.lost.length > 0
        ? [`Lost writes (first 5): ${JSON.stringify(check.lost.slice(0, 5))}`]
        : []),
      ...(failed ? [`Target missed: see errors, non-2xx and lost writes above.`] : []),
    ],
  });
} finally {
  await stack.stop();
  await bare.stop();
  await database.drop();
}
process.exit(exitCode);
