// Autosave and profile beside the least server (issue #19). One API process and the least server
// (bench/least-server.ts: Fastify + pg running the same statements, nothing else) take turns on
// the same PostgreSQL database and sessions: 50 connections, one applicant each, PUT /api/answer
// alone, then GET /api/profile alone, each for AUTOSAVE_DURATION_S, in two rounds (API first, then
// least server first). Then the embedded default (PGlite, worker in-process, as `npm start`) is
// offered 400 saves a second on an open loop — requests leave on a fixed schedule whatever the
// answers, and latency counts from the scheduled time — by 40 applicants saving every 100 ms.
// Every acknowledged save is read back. Both servers run compiled: the API as `npm start` runs it
// (dist/server.js, built first when stale), the least server bundled by the same esbuild (under
// tsx, the API's per-request closures each paid tsx's keepNames helper, which production never
// runs).
//
//   npm run bench -w services/api -- autosave
//   AUTOSAVE_DURATION_S=5 npm run bench -w services/api -- autosave
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { API_ROUTES } from '@admissions/api-contract';
import { build } from 'esbuild';
import { formatMs, percentile, reportBench, type BenchCell } from '../../../bench/report';
import {
  buildCompiledService,
  buildEmbeddedEnv,
  createScratchDatabase,
  findFreePort,
  launchProcess,
  startProcessStack,
  waitUntilReady,
  type ManagedProcess,
} from '../test/support/process-stack';
import {
  LOAD_RATE_LIMIT_ENV,
  runLoad,
  seedApplicants,
  verifyAcknowledgedWrites,
  type Applicant,
  type LoadOutcome,
  type WriteCheck,
} from '../test/support/load-run';
import type { OutboxMessage } from '../test/support/test-runtime';
import { AnswerLedger } from '../test/support/answer-ledger';
import { sendRequest } from '../test/support/open-loop';
import { COMPLETE_FIXTURE } from '@admissions/answer-view/fixtures';

const DURATION_S = Number(process.env.AUTOSAVE_DURATION_S ?? 15);
const CONNECTIONS = 50;
const OPEN_LOOP_RATE = 400;
const OPEN_LOOP_APPLICANTS = 40;
/** How long the least server gets to finish the saves still inside it when a run ends. */
const SETTLE_MS = 2000;
/** Uncounted load on each process and route before the first measured run. */
const WARM_UP_S = 3;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Measured {
  label: string;
  outcome: LoadOutcome;
  /** CPU time of the serving process (user + system) per answered request, in ms. */
  cpuMsPerRequest: number;
}

// Linux clock ticks per second (getconf CLK_TCK): 100 on every kernel this runs on.
const CLOCK_TICKS_PER_S = 100;

/**
 * User + system CPU of one process so far, in ms (/proc/<pid>/stat). Throughput on a shared
 * machine swings with the load; CPU per request says what each request costs the process itself.
 */
function readProcessCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

function describeRun({ label, outcome, cpuMsPerRequest }: Measured): BenchCell[] {
  const { result } = outcome;
  const route = [...outcome.routes.values()].find((stats) => stats.latencies.length > 0);
  const latencies = route?.latencies ?? [];
  const errors = result.errors + result.timeouts + result.non2xx;
  return [
    label,
    Math.round(result.requests.average),
    formatMs(percentile(latencies, 50)),
    formatMs(percentile(latencies, 99)),
    errors,
    cpuMsPerRequest.toFixed(3),
  ];
}

const cpuPerRequest = (runs: Measured[]) =>
  runs.reduce((sum, run) => sum + run.cpuMsPerRequest * run.outcome.result.requests.total, 0) /
  runs.reduce((sum, run) => sum + run.outcome.result.requests.total, 0);

const rate = (runs: Measured[]) =>
  runs.reduce((sum, run) => sum + run.outcome.result.requests.total, 0) /
  runs.reduce((sum, run) => sum + run.outcome.result.duration, 0);

async function restoreSeededAnswers(applicants: readonly Applicant[]): Promise<void> {
  await Promise.all(
    applicants.map(async (applicant) => {
      const response = await fetch(`${applicant.url}${API_ROUTES.answer}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: applicant.cookie },
        body: JSON.stringify(COMPLETE_FIXTURE.answers),
      });
      if (response.status !== 200) throw new Error(`restore answers: ${response.status}`);
    }),
  );
}

const serviceRoot = path.resolve(import.meta.dirname, '..');

/** The least server as one bundled file, as esbuild bundles the API (Fastify and pg inside). */
async function bundleLeastServer(outDir: string): Promise<string> {
  const outfile = path.join(outDir, 'least-server.js');
  await build({
    entryPoints: [path.join(serviceRoot, 'bench/least-server.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: ['pg-native'],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

async function startLeastServer(databaseUrl: string, logDir: string) {
  const port = await findFreePort();
  const server = launchProcess(
    'least-server',
    [await bundleLeastServer(logDir)],
    { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    logDir,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(server, async () => (await fetch(`${url}/health`)).status === 200);
  return { url, server };
}

async function compareWithLeastServer() {
  const scratch = await createScratchDatabase(adminUrl, 'autosave');
  const stack = await startProcessStack({
    databaseUrl: scratch.url,
    apis: 1,
    workers: 1,
    compiled: true,
    env: { ...LOAD_RATE_LIMIT_ENV, MAX_EVENT_LOOP_DELAY_MS: '0' },
  });
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-least-'));
  let least: ManagedProcess | undefined;
  try {
    const applicants = await seedApplicants(stack, CONNECTIONS);
    const started = await startLeastServer(scratch.url, logDir);
    least = started.server;
    const atLeast = applicants.map((a) => ({ ...a, url: started.url }));
    const measure = async (
      label: string,
      who: readonly Applicant[],
      pid: number,
      save: boolean,
      durationS = DURATION_S,
    ): Promise<Measured> => {
      const cpuBefore = readProcessCpuMs(pid);
      const outcome = await runLoad({
        applicants: who,
        connections: CONNECTIONS,
        durationS,
        lookupTexts: ['a'],
        mix: save ? { save: 1, profile: 0 } : { save: 0, profile: 1 },
      });
      const cpuMs = readProcessCpuMs(pid) - cpuBefore;
      return { label, outcome, cpuMsPerRequest: cpuMs / outcome.result.requests.total };
    };
    // Both processes compile their hot paths before anything is counted: in a 5 s run the
    // first one measured paid for the JIT (CPU per request a third to two thirds higher than in
    // the second round); a 15 s run spreads the same cost thinner.
    for (const [who, pid] of [
      [applicants, stack.apis[0]!.pid],
      [atLeast, started.server.pid],
    ] as const) {
      for (const save of [true, false]) {
        await measure('warm-up', who, pid, save, WARM_UP_S);
      }
    }
    // The least server's last warm-up saves land before round 1's restore.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const saves: { api: Measured[]; least: Measured[] } = { api: [], least: [] };
    const profiles: { api: Measured[]; least: Measured[] } = { api: [], least: [] };
    const check: WriteCheck = { applicants: applicants.length, keys: 0, lost: [] };
    for (const round of [1, 2]) {
      const order = round === 1 ? (['api', 'least'] as const) : (['least', 'api'] as const);
      for (const who of order) {
        const target = who === 'api' ? applicants : atLeast;
        const name = who === 'api' ? 'API' : 'least server';
        const pid = who === 'api' ? stack.apis[0]!.pid : started.server.pid;
        // The read-back compares with the complete application seeding saved: put it back first,
        // over whatever the other server wrote in the run before.
        if (who === 'api') {
          // autocannon stops at its deadline with up to one save per connection still inside
          // the least server; one that commits after the restore would put a least-server value
          // back under a key the API run may not touch again: a "lost" save that is not one.
          if (saves.least.length > 0)
            await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          await restoreSeededAnswers(applicants);
        }
        const run = await measure(`${name}, round ${round}`, target, pid, true);
        saves[who].push(run);
        // Read back before the other server writes over the same applicants' answers.
        if (who === 'api') {
          const readBack = await verifyAcknowledgedWrites(run.outcome.ledgers);
          check.keys += readBack.keys;
          check.lost.push(...readBack.lost);
        }
      }
      for (const who of order) {
        const target = who === 'api' ? applicants : atLeast;
        const name = who === 'api' ? 'API' : 'least server';
        const pid = who === 'api' ? stack.apis[0]!.pid : started.server.pid;
        profiles[who].push(await measure(`${name}, round ${round}`, target, pid, false));
      }
    }
    return { saves, profiles, check };
  } finally {
    await least?.stop();
    await stack.stop();
    await scratch.drop();
    rmSync(logDir, { recursive: true, force: true });
  }
}

async function readOutboxOf(dataDir: string): Promise<OutboxMessage[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort();
  return Promise.all(
    files.map(
      async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as OutboxMessage,
    ),
  );
}

/** The embedded default as `npm start` runs it, offered a fixed rate of saves. */
async function runEmbeddedOpenLoop() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-embedded-'));
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir);
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const env = buildEmbeddedEnv({
    port,
    dataDir,
    scratchDir: dataDir,
    env: { ...LOAD_RATE_LIMIT_ENV, LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0' },
  });
  Object.assign(env, {
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const api = launchProcess('embedded', ['dist/server.js'], env, logDir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  try {
    await waitUntilReady(api, async () => (await fetch(`${url}/health`)).status === 200);
    const applicants = await seedApplicants(
      { urls: [url], readOutbox: () => readOutboxOf(dataDir) },
      OPEN_LOOP_APPLICANTS,
    );
    const ledgers = new Map(
      applicants.map((applicant) => [
        applicant.email,
        { applicant, answers: new AnswerLedger(COMPLETE_FIXTURE.answers) },
      ]),
    );
    const latencies: number[] = [];
    const statuses = new Map<number | string, number>();
    const total = OPEN_LOOP_RATE * DURATION_S;
    const interval = 1000 / OPEN_LOOP_RATE;
    const start = performance.now() + 50;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const scheduled = start + i * interval;
      const wait = scheduled - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const applicant = applicants[i % applicants.length]!;
      const ledger = ledgers.get(applicant.email)!.answers;
      const patch = { preferred_name: `Save ${i.toString(36)}` };
      ledger.recordSent(patch);
      const body = JSON.stringify(patch);
      inFlight.push(
        sendRequest(agent, `${url}${API_ROUTES.answer}`, {
          method: 'PUT',
          cookie: applicant.cookie,
          body,
        }).then(({ status, body: answer }) => {
          latencies.push(performance.now() - scheduled);
          // No answer: counted under the error's name, as before the sender was shared.
          const key = status === 0 ? answer : status;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (status === 200) ledger.recordAcknowledged(patch);
        }),
      );
    }
    const sentIn = (performance.now() - start) / 1000;
    await Promise.all(inFlight);
    const check = await verifyAcknowledgedWrites(ledgers);
    return { latencies, statuses, sentIn, check, total };
  } finally {
    agent.destroy();
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

buildCompiledService();
const compared = await compareWithLeastServer();
const embedded = await runEmbeddedOpenLoop();

const saveRatio = rate(compared.saves.api) / rate(compared.saves.least);
const profileRatio = rate(compared.profiles.api) / rate(compared.profiles.least);
const apiSaveLatencies = compared.saves.api.flatMap(
  (run) => run.outcome.routes.get('PUT /api/answer')?.latencies ?? [],
);
const ok = embedded.statuses.get(200) ?? 0;
const failed = embedded.total - ok;
const columns = ['run', 'req/s', 'p50', 'p99', 'errors', 'CPU ms/request'];

reportBench({
  id: 'autosave',
  title: 'Autosave and profile beside the least server (`services/api`, issue #19)',
  command: 'npm run bench -w services/api -- autosave',
  description:
    `One API process and the least server (\`bench/least-server.ts\`: Fastify + pg running the same ` +
    `session read, JSONB merge and profile query as named prepared statements, nothing else) take ` +
    `turns on one PostgreSQL database ` +
    `and the same sessions: autocannon, ${CONNECTIONS} connections (one applicant each), ` +
    `${DURATION_S} s per run after ${WARM_UP_S} s of uncounted warm-up on each, two rounds in ` +
    `alternating order; CPU per request is the serving process's own (user + system). Both run ` +
    `compiled: the API as \`npm start\` runs it (\`dist/server.js\`), the least server bundled by ` +
    `esbuild. Then the embedded default (PGlite, ` +
    `worker in-process) is offered ${OPEN_LOOP_RATE} saves/s on an open loop by ` +
    `${OPEN_LOOP_APPLICANTS} applicants (each every ${1000 * (OPEN_LOOP_APPLICANTS / OPEN_LOOP_RATE)} ms); ` +
    `latency counts from each request's scheduled time. Every acknowledged save is read back.`,
  tables: [
    {
      caption:
        'Summary (targets: save ≥ 0.85, profile ≥ 0.8, save p99 ≤ 50 ms, embedded p99 ≤ 100 ms)',
      columns: ['measure', 'value'],
      rows: [
        ['PUT /api/answer: API ÷ least server (req/s)', saveRatio.toFixed(2)],
        ['GET /api/profile: API ÷ least server (req/s)', profileRatio.toFixed(2)],
        [
          'CPU per request, API ÷ least server (save / profile)',
          `${(cpuPerRequest(compared.saves.api) / cpuPerRequest(compared.saves.least)).toFixed(2)} / ${(cpuPerRequest(compared.profiles.api) / cpuPerRequest(compared.profiles.least)).toFixed(2)}`,
        ],
        ['PUT /api/answer p99, API, 50 connections', formatMs(percentile(apiSaveLatencies, 99))],
        [
          `embedded default, ${OPEN_LOOP_RATE} saves/s offered: p50 / p99`,
          `${formatMs(percentile(embedded.latencies, 50))} / ${formatMs(percentile(embedded.latencies, 99))}`,
        ],
        [
          'embedded: sent / acknowledged / failed',
          `${embedded.total} in ${embedded.sentIn.toFixed(1)} s / ${ok} / ${failed}`,
        ],
        [
          'acknowledged saves read back (PostgreSQL / embedded): keys, lost',
          `${compared.check.keys}, ${compared.check.lost.length} / ${embedded.check.keys}, ${embedded.check.lost.length}`,
        ],
      ],
    },
    {
      caption: `PUT /api/answer, ${CONNECTIONS} connections`,
      columns,
      rows: [...compared.saves.api, ...compared.saves.least].map(describeRun),
    },
    {
      caption: `GET /api/profile, ${CONNECTIONS} connections`,
      columns,
      rows: [...compared.profiles.api, ...compared.profiles.least].map(describeRun),
    },
  ],
  notes: [
    `load average after: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ')}`,
  ],
});
for (const lost of [...compared.check.lost, ...embedded.check.lost].slice(0, 10)) {
  console.error('lost acknowledged save:', JSON.stringify(lost));
}
if (compared.check.lost.length > 0 || embedded.check.lost.length > 0) process.exitCode = 1;
