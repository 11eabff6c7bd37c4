// Fault suite, full version (issue #9): PostgreSQL stopped for 10 s under the load of 20
// applicants saving answers against two API processes, then kill -9 of the worker while a batch
// of documents converts. Prints the figures (bench/report.ts, id "faults"); the CI version that
// asserts the behaviour is test/faults.test.ts.
import { formatMs, percentile, reportBench } from '../../../bench/report';
import { findFreePorts, startPrivatePostgres } from '../test/support/private-postgres';
import { startProcessStack } from '../test/support/process-stack';
import {
  countStatuses,
  killOrphans,
  runOutageScenario,
  runWorkerKillScenario,
  seedApplicants,
  type RequestRecord,
} from '../test/support/fault-scenarios';
import { maintenanceIntervalSeconds } from '../src/platform/queue/job-queue';
import { conversionExpirySeconds } from '../src/modules/documents';
import { listQueues } from '../src/boot/workers';

const CLIENTS = 20;
const OUTAGE_MS = 10_000;
const CONVERSION_TIMEOUT_MS = 15_000;
// docx, png, docx, pdf, …: 12 docx through LibreOffice, images and PDFs queued between them.
const ORDER = Array.from({ length: 24 }, (_, i) =>
  i % 2 === 0 ? ('docx' as const) : i % 4 === 1 ? ('png' as const) : ('pdf' as const),
);

function describeStatuses(records: RequestRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) {
    let code = '';
    try {
      code = (JSON.parse(r.body) as { code?: string }).code ?? '';
    } catch {
      // not JSON (no response)
    }
    const key = r.status === 0 ? 'no response' : `${r.status}${code ? ` ${code}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} × ${n}`).join(', ');
}

function describeChildren(children: { command: string }[]): string {
  return children.length === 0
    ? 'none'
    : children.map((c) => c.command.split('/').at(-1)).join(', ');
}

const started = performance.now();
const postgres = await startPrivatePostgres();
const stack = await startProcessStack({
  databaseUrl: postgres.url,
  apis: 2,
  workers: 1,
  ports: await findFreePorts(2, 4320, 4339),
  env: {
    GLOBAL_RATE_LIMIT: '10000000',
    PUBLIC_RATE_LIMIT: '1000000',
    ACCOUNT_RATE_LIMIT: '10000000',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    CONVERSION_TIMEOUT_MS: String(CONVERSION_TIMEOUT_MS),
    CONVERSION_CONCURRENCY: '2',
    LOG_LEVEL: 'info',
  },
});
let orphans: { pid: number; command: string }[] = [];
try {
  const applicants = await seedApplicants(postgres.url, CLIENTS);
  const outage = await runOutageScenario({
    stack,
    postgres,
    applicants,
    warmupMs: 5000,
    outageMs: OUTAGE_MS,
    afterMs: 5000,
  });
  const during = outage.duringOutage;
  const latencies = during.map((r) => r.endedAt - r.startedAt);
  const beforeOutage = outage.records.filter((r) => r.endedAt < outage.downAt);
  const beforeLatencies = beforeOutage.map((r) => r.endedAt - r.startedAt);
  const generic = during.every((r) => {
    try {
      const body = JSON.parse(r.body) as Record<string, unknown>;
      return Object.keys(body).sort().join() === 'code,message' && r.retryAfter !== null;
    } catch {
      return false;
    }
  });

  const kill = await runWorkerKillScenario({
    stack,
    databaseUrl: postgres.url,
    applicants,
    kinds: ORDER,
    inFlightAtLeast: 2,
    finalWithinMs: 150_000,
  });
  orphans = kill.orphans;
  const atKill = kill.atKill;
  const total = performance.now() - started;

  reportBench({
    id: 'faults',
    title: 'Faults: PostgreSQL outage and worker kill (`services/api`, issue #9)',
    command: 'npm run bench -w services/api -- fault',
    description:
      'Real processes on loopback: a private PostgreSQL 15 cluster (initdb in a temp dir, its ' +
      'own port), two API processes (`src/boot/server.ts`, `RUN_WORKER_IN_PROCESS=false`) and one ' +
      '`cli worker` (`test/support/process-stack.ts`). **Outage:** ' +
      `${CLIENTS} applicants (one client each, round-robin over the two processes) save answers ` +
      'without pause (`PUT /api/answer`, four in five requests) and read their profile ' +
      '(`GET /api/profile`); a refused request is retried after 100 ms. After 5 s PostgreSQL ' +
      `is stopped with \`pg_ctl stop -m immediate\` (every backend killed, as in a crash) for ` +
      `${OUTAGE_MS / 1000} s, then started again (crash recovery). "During the outage" means sent ` +
      'after the stop returned and answered before the start began. Afterwards every ' +
      "applicant's answers are read back and compared with the last value each client saw " +
      'acknowledged (2xx) per field. **Worker kill:** ' +
      `${ORDER.length} documents (12 docx through LibreOffice, 6 PNG, 6 PDF) uploaded through ` +
      'the API (presigned URL, multipart upload, start); once at least two convert, the worker ' +
      'process alone gets SIGKILL, a new worker is started and the statuses are polled through ' +
      `the API until all are final. CONVERSION_TIMEOUT_MS=${CONVERSION_TIMEOUT_MS}, so a dead ` +
      `worker's job expires after ${conversionExpirySeconds(CONVERSION_TIMEOUT_MS)} s and pg-boss ` +
      `looks for expired jobs every ${maintenanceIntervalSeconds(listQueues({ conversionTimeoutMs: CONVERSION_TIMEOUT_MS }))} s ` +
      `(with the default 60 s: ${conversionExpirySeconds(60_000)} s and ` +
      `${maintenanceIntervalSeconds(listQueues({ conversionTimeoutMs: 60_000 }))} s; before issue #9, 15 min and 2 min).`,
    tables: [
      {
        caption: `PostgreSQL stopped for ${OUTAGE_MS / 1000} s under load`,
        columns: ['measure', 'result', 'target (issue #9)'],
        rows: [
          ['requests answered during the outage', during.length, '—'],
          ['status codes seen during the outage', describeStatuses(during), '503 only'],
          [
            'body of the refusals',
            generic ? '`{message, code}` only, with Retry-After' : 'NOT generic',
            'generic, no driver detail',
          ],
          [
            'latency of refused requests p50 / p99 / max',
            `${formatMs(percentile(latencies, 50))} / ${formatMs(percentile(latencies, 99))} / ${formatMs(Math.max(...latencies))}`,
            'fast (well under 2 s)',
          ],
          [
            'latency before the outage p50 / p99 (for comparison)',
            `${formatMs(percentile(beforeLatencies, 50))} / ${formatMs(percentile(beforeLatencies, 99))}`,
            '—',
          ],
          [
            '`/health` while down / after',
            `${outage.healthDown.map((h) => h.status).join(', ')} / ${outage.healthUp.map((h) => h.status).join(', ')}`,
            '503 / 200',
          ],
          [
            '`pg_ctl start` (crash recovery) until ready',
            formatMs(outage.upAt - outage.startAt),
            '—',
          ],
          [
            'from `pg_ctl start` to the first 2xx, per API process',
            outage.recoveryMs.map((ms) => formatMs(ms)).join(', '),
            'recovers without a restart',
          ],
          ['API processes restarted', stack.apis.filter((a) => !a.isRunning()).length, '0'],
          ['requests 2xx after the outage', outage.okAfter, '—'],
          [
            'acknowledged writes checked / lost',
            `${outage.checked} / ${outage.lost.length}`,
            '0 lost',
          ],
        ],
      },
      {
        caption: 'kill -9 of the worker during conversions',
        columns: ['measure', 'result', 'target (issue #9)'],
        rows: [
          ['documents', `${ORDER.length} (12 docx, 6 PNG, 6 PDF)`, '—'],
          [
            'statuses at the kill',
            Object.entries(atKill)
              .map(([s, n]) => `${s} ${n}`)
              .join(', '),
            '—',
          ],
          ['in flight (IN_PROGRESS) at the kill', atKill.IN_PROGRESS ?? 0, '≥ 1'],
          ['from the new worker ready to all final', formatMs(kill.restartToFinalMs), 'bounded'],
          ['from the kill to all final', formatMs(kill.killToFinalMs), 'bounded'],
          [
            'final statuses',
            Object.entries(countStatuses(kill.finalStatuses))
              .map(([s, n]) => `${s} ${n}`)
              .join(', '),
            'every document COMPLETED or FAILED',
          ],
          [
            "the killed worker's children alive 0.5 s after the kill / when all were final",
            `${describeChildren(kill.orphans)} / ${describeChildren(kill.orphansAtEnd)}`,
            '—',
          ],
        ],
      },
    ],
    notes: [
      `Whole run ${formatMs(total)} on this machine, processes started included.`,
      'The outage is a refused connection (the port closed): a host that stops answering ' +
        'instead would make each request wait for the pool’s connectionTimeoutMillis (5 s).',
      'Load shedding (MAX_EVENT_LOOP_DELAY_MS) is off in this run so that every 503 is ' +
        'attributable to the outage; the status codes above carry their `code` to show it.',
    ],
  });
} finally {
  killOrphans(orphans);
  await stack.stop();
  await postgres.remove();
}
