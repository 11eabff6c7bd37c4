// Deadline day (issue #29): the scale-out topology on this machine (PostgreSQL, two API processes,
// one worker, compiled as `npm start` runs them) with one admission round whose deadline passes in
// the middle of the run. DEADLINE_APPLICANTS applicants (2,000) each save one field every 3–5 s
// (≈500 saves/s) and DEADLINE_SUBMIT_RATE distinct applicants a second (20) submit a complete
// application and ask for its PDF, as the completion page does, for DEADLINE_DURATION_S (300 s).
// Open loop: every request leaves at a time fixed before the run, whatever the answers, and its
// latency counts from that time (test/support/open-loop.ts). The first DEADLINE_BASELINE_S
// seconds carry the saves alone, the baseline of the same run. Afterwards: every acknowledged
// save read back, every submit judged by its send time against the deadline (±50 ms is "at the
// edge", reported apart), the server's own view of each submitter's application, and the PDF
// jobs' lag from pg-boss.
//
//   npm run bench -- deadline
//   DEADLINE_DURATION_S=30 DEADLINE_APPLICANTS=200 npm run bench -w services/api -- deadline
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  API_ROUTES,
  ENDPOINT_ROUTES,
  routePath,
  type ApplicationsResponse,
} from '@admissions/api-contract';
import { COMPLETE_FIXTURE } from '@admissions/answer-view/fixtures';
import { DEFAULT_PARTNER, type PartnerRound } from '@admissions/form';
import { formatMs, percentile, reportBench, type BenchCell } from '../../../bench/report';
import {
  buildCompiledService,
  createScratchDatabase,
  startProcessStack,
  type ProcessStack,
} from '../test/support/process-stack';
import {
  LOAD_RATE_LIMIT_ENV,
  createRandom,
  createSavePatchMaker,
  prepareCompleteApplications,
  runLimited,
  verifyAcknowledgedWrites,
  type Applicant,
  type ApplicantLedger,
} from '../test/support/load-run';
import { seedApplicants as writeApplicantsWithSessions } from '../test/support/fault-scenarios';
import { AnswerLedger } from '../test/support/answer-ledger';
import { readCommandCpuMs, readTreeCpuMs } from './process-tree-cpu';
import {
  readErrorCode,
  runSchedule,
  sendRequest,
  type ScheduledSend,
} from '../test/support/open-loop';

const DURATION_S = Number(process.env.DEADLINE_DURATION_S ?? 300);
const SAVERS = Number(process.env.DEADLINE_APPLICANTS ?? 2000);
const SUBMIT_RATE = Number(process.env.DEADLINE_SUBMIT_RATE ?? 20);
const BASELINE_S = Number(
  process.env.DEADLINE_BASELINE_S ?? Math.min(30, Math.round(DURATION_S / 4)),
);
/** How long the PDF jobs still queued when the load ends get to finish before the lag is read. */
const PDF_DRAIN_S = Number(process.env.DEADLINE_PDF_DRAIN_S ?? 300);
const SAVE_EVERY_MS = { min: 3000, max: 5000 };
/** A request sent this close to the deadline is "at the edge": reported, not judged. */
const EDGE_MS = 50;
const ROUND_CODE = 'DEADLINE';
const TARGET = { saveP99Ms: 100, submitP99Ms: 1000 };
/** Time for `rounds update` and its check between choosing the deadline and the first save. */
const SET_UP_ALLOWANCE_MS = 15_000;
const PDF_QUEUE_NAME = 'render-application-pdf';
const PENDING_JOB_STATES = ['created', 'retry', 'active'];

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const submitterCount = Math.ceil(SUBMIT_RATE * DURATION_S);

type Phase = 'baseline' | 'before' | 'after';
/** Cumulative CPU in ms of each part of the stack at one moment (`at`, wall clock). */
interface CpuSample {
  at: number;
  api: number;
  worker: number;
  postgres: number;
  generator: number;
}
const CPU_PARTS = ['api', 'worker', 'postgres', 'generator'] as const;
type Side = 'before' | 'edge' | 'after';

interface Outcome {
  /** Due time on performance.now()'s clock; latency counts from it. */
  scheduled: number;
  /** When the request left (sendRequest's sentAt): the client's send time, judged against the deadline. */
  sentAt: number;
  latency: number;
  status: number;
  code: string;
}

interface SubmitOutcome extends Outcome {
  applicant: Applicant;
  /** ms from the submit's due time to the answer of the GET /api/pdf that follows a 200. */
  pdfRequestedAfter: number | null;
  pdfStatus: number | null;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
const countBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};
const describeStatuses = (outcomes: readonly Outcome[]) =>
  [...countBy(outcomes, (o) => (o.code ? `${o.status} ${o.code}` : String(o.status)))]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ') || '—';
const isOk = (o: Outcome) => o.status >= 200 && o.status < 300;
const isRoundClosed = (o: Outcome) => o.status === 409 && o.code === 'ROUND_CLOSED';
/** The largest sample, NaN (shown as —) when there is none. */
const maxOf = (samples: readonly number[]) =>
  samples.length === 0 ? Number.NaN : samples.reduce((max, n) => (n > max ? n : max));
const latencyCells = (outcomes: readonly Outcome[]) => {
  const latencies = outcomes.map((o) => o.latency);
  return [
    formatMs(percentile(latencies, 50)),
    formatMs(percentile(latencies, 99)),
    formatMs(maxOf(latencies)),
  ];
};
const p99Of = (outcomes: readonly Outcome[]) =>
  percentile(
    outcomes.map((o) => o.latency),
    99,
  );
const met = (ok: boolean) => (ok ? 'met' : 'missed');

/** The partner configuration of the run: one round, open since yesterday, grace 0. */
function writePartnerConfig(dir: string): string {
  const now = Date.now();
  const round: PartnerRound = {
    code: ROUND_CODE,
    name: 'Deadline Day',
    entryTerm: DEFAULT_PARTNER.entryTerms[0]!.value,
    opensAt: new Date(now - 24 * 3600_000).toISOString(),
    // Moved to the middle of the run with `rounds update` once seeding is done (its length is
    // not known in advance); the round must be open while the applications are started.
    deadline: new Date(now + 24 * 3600_000).toISOString(),
    graceMinutes: 0,
  };
  const file = path.join(dir, 'partner.json');
  writeFileSync(file, JSON.stringify({ rounds: [round] }, null, 2));
  return file;
}

/** The round's closing time as each API process reports it; null when the service has no rounds. */
async function readClosingTimes(stack: ProcessStack, who: Applicant): Promise<(string | null)[]> {
  return Promise.all(
    stack.urls.map(async (url) => {
      const response = await fetch(`${url}${routePath(ENDPOINT_ROUTES.readApplications)}`, {
        headers: { cookie: who.cookie },
      });
      if (response.status === 404) return null;
      if (response.status !== 200) {
        throw new Error(`GET /api/applications: ${response.status} ${await response.text()}`);
      }
      const body = (await response.json()) as ApplicationsResponse;
      return body.rounds.find((round) => round.code === ROUND_CODE)?.closes_at ?? null;
    }),
  );
}

/**
 * Moves the round's deadline to `deadline` with the CLI (issue #29's `rounds update`) and checks
 * that every API process enforces that time. Returns why the deadline is not enforced, or null.
 */
async function setDeadline(
  stack: ProcessStack,
  who: Applicant,
  deadline: Date,
): Promise<string | null> {
  try {
    await stack.runCli([
      'rounds',
      'update',
      '--code',
      ROUND_CODE,
      '--deadline',
      deadline.toISOString(),
    ]);
  } catch (error) {
    return `\`npm run cli -- rounds update\` failed: ${String(error).split('\n')[0]}`;
  }
  const closing = await readClosingTimes(stack, who);
  if (closing.some((time) => time === null)) {
    return 'GET /api/applications does not list the round';
  }
  closing.forEach((time, i) => {
    if (Date.parse(time!) !== deadline.getTime()) {
      // Every figure after this would be judged against the wrong time: stop before the load.
      throw new Error(
        `API process ${i + 1} reports the round closing at ${time} after \`rounds update\` set ` +
          `${deadline.toISOString()}: the processes must read the deadline from the database.`,
      );
    }
  });
  return null;
}

interface PdfJob {
  state: string;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
}

/** Every application-PDF job, finished or not (pg-boss keeps finished ones in job or archive). */
async function readPdfJobs(databaseUrl: string): Promise<PdfJob[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columns = `id, state::text AS state,
      extract(epoch FROM created_on) * 1000 AS created,
      extract(epoch FROM started_on) * 1000 AS started,
      extract(epoch FROM completed_on) * 1000 AS completed`;
    const { rows } = await client.query<{
      id: string;
      state: string;
      created: string;
      started: string | null;
      completed: string | null;
    }>(
      `SELECT ${columns} FROM pgboss.job WHERE name = $1
       UNION ALL SELECT ${columns} FROM pgboss.archive WHERE name = $1`,
      [PDF_QUEUE_NAME],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return [...byId.values()].map((row) => ({
      state: row.state,
      createdAt: Number(row.created),
      startedAt: row.started === null ? null : Number(row.started),
      completedAt: row.completed === null ? null : Number(row.completed),
    }));
  } finally {
    await client.end();
  }
}

/** Waits until no PDF job is pending or `limitMs` has passed; returns the jobs then. */
async function drainPdfJobs(databaseUrl: string, limitMs: number): Promise<PdfJob[]> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const jobs = await readPdfJobs(databaseUrl);
    const pending = jobs.filter((job) => PENDING_JOB_STATES.includes(job.state)).length;
    if (pending === 0 || Date.now() >= giveUpAt) return jobs;
    console.log(`PDF jobs: ${pending} of ${jobs.length} still pending…`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}

interface SubmitCheck {
  /** 200 to the client, but the server does not show the application submitted. */
  acknowledgedNotSubmitted: number;
  /** Refused to the client, but the server shows it submitted. */
  refusedButSubmitted: number;
  /** Submitted on the server with a receipt time after the round closed. */
  submittedAfterClose: number;
  checked: number;
}

/** Each submitter's application as the server reports it afterwards. */
async function checkSubmissions(
  submits: readonly SubmitOutcome[],
  closesAt: number,
  hasRounds: boolean,
): Promise<SubmitCheck> {
  const check: SubmitCheck = {
    acknowledgedNotSubmitted: 0,
    refusedButSubmitted: 0,
    submittedAfterClose: 0,
    checked: 0,
  };
  await runLimited(submits, 16, async (submit) => {
    const { applicant } = submit;
    let submitted: boolean;
    let submittedAt: string | null = null;
    if (hasRounds) {
      const response = await fetch(
        `${applicant.url}${routePath(ENDPOINT_ROUTES.readApplications)}`,
        { headers: { cookie: applicant.cookie } },
      );
      if (response.status !== 200) throw new Error(`read-back ${response.status}`);
      const body = (await response.json()) as ApplicationsResponse;
      const mine = body.applications.find((application) => application.round === ROUND_CODE);
      submittedAt = mine?.submitted_at ?? null;
      submitted = submittedAt !== null;
    } else {
      const response = await fetch(`${applicant.url}${API_ROUTES.profile}`, {
        headers: { cookie: applicant.cookie },
      });
      if (response.status !== 200) throw new Error(`read-back ${response.status}`);
      const body = (await response.json()) as { web_status: { web_status: string }[] };
      submitted = body.web_status.some((s) => s.web_status === 'submitted');
    }
    check.checked++;
    if (isOk(submit) && !submitted) check.acknowledgedNotSubmitted++;
    if (!isOk(submit) && submit.status !== 0 && submitted) check.refusedButSubmitted++;
    if (submittedAt !== null && Date.parse(submittedAt) > closesAt) check.submittedAfterClose++;
  });
  return check;
}

const sideOf = (sentAt: number, closesAt: number): Side =>
  sentAt < closesAt - EDGE_MS ? 'before' : sentAt > closesAt + EDGE_MS ? 'after' : 'edge';

const startedAt = Date.now();
buildCompiledService();
const configDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-deadline-'));
const database = await createScratchDatabase(adminUrl, 'deadline');
let stack: ProcessStack | undefined;
const agents: http.Agent[] = [];
let exitCode = 0;
try {
  stack = await startProcessStack({
    databaseUrl: database.url,
    apis: 2,
    workers: 1,
    compiled: true,
    env: { ...LOAD_RATE_LIMIT_ENV, PARTNER_CONFIG_FILE: writePartnerConfig(configDir) },
  });
  const stackReadyIn = Date.now() - startedAt;
  const urls = stack.urls;

  // Accounts and sessions straight into the database (thousands of argon2 sign-ups and logins
  // would take longer than the run); everything after goes through the real routes.
  const seedStart = Date.now();
  const direct = await writeApplicantsWithSessions(database.url, SAVERS + submitterCount, {
    withApplication: false,
    emailPrefix: 'deadline',
    concurrency: 8,
  });
  const applicants: Applicant[] = direct.map((a, i) => ({
    email: a.email,
    cookie: `sid=${a.sid}`,
    url: urls[i % urls.length]!,
  }));
  const rowsIn = Date.now() - seedStart;
  const savers = applicants.slice(0, SAVERS);
  const submitters = applicants.slice(SAVERS);
  const [saverChoice, submitterChoice] = [
    await prepareCompleteApplications(savers, { round: ROUND_CODE, forSubmit: false }),
    await prepareCompleteApplications(submitters, { round: ROUND_CODE }),
  ];
  const roundChoice = saverChoice === 'chosen' ? submitterChoice : saverChoice;
  const seededIn = Date.now() - seedStart;

  // The deadline in the middle of the measured part; the baseline before it.
  const closesAt =
    Math.ceil((Date.now() + SET_UP_ALLOWANCE_MS + BASELINE_S * 1000 + DURATION_S * 500) / 1000) *
    1000;
  const notEnforced =
    roundChoice === 'chosen'
      ? await setDeadline(stack, savers[0] ?? submitters[0]!, new Date(closesAt))
      : 'PUT /api/application answered 404: this service has no rounds';
  if (notEnforced) console.warn(`The deadline is not enforced in this run: ${notEnforced}`);
  const mainStartWall = closesAt - DURATION_S * 500;
  const baselineStartWall = mainStartWall - BASELINE_S * 1000;
  const endWall = mainStartWall + DURATION_S * 1000;
  if (baselineStartWall < Date.now() + 200) {
    throw new Error('Setting the deadline took longer than SET_UP_ALLOWANCE_MS; nothing was sent.');
  }
  // Where the two cores go: CPU of each part of the stack at the phases' edges, read from /proc.
  const cpuSamples: CpuSample[] = [];
  const sampleCpu = () => {
    const own = process.cpuUsage();
    cpuSamples.push({
      at: Date.now(),
      api: stack!.apis.reduce((sum, api) => sum + readTreeCpuMs(api.pid), 0),
      worker: stack!.workers.reduce((sum, worker) => sum + readTreeCpuMs(worker.pid), 0),
      postgres: readCommandCpuMs('postgres'),
      generator: (own.user + own.system) / 1000,
    });
  };
  for (const wall of [baselineStartWall, mainStartWall, closesAt, endWall]) {
    setTimeout(sampleCpu, wall - Date.now());
  }
  // One clock for due times (monotonic) and one for judging against the deadline (the wall).
  const wallToPerf = performance.now() - Date.now();
  const perfOf = (wall: number) => wall + wallToPerf;
  const phaseOf = (scheduled: number): Phase =>
    scheduled < perfOf(mainStartWall)
      ? 'baseline'
      : scheduled < perfOf(closesAt)
        ? 'before'
        : 'after';

  // One keep-alive agent per API process, as a balancer's connection pool to it.
  const agentFor = new Map(
    urls.map((url) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
      agents.push(agent);
      return [url, agent];
    }),
  );

  const random = createRandom(29);
  const createSavePatch = createSavePatchMaker(random);
  const ledgers = new Map<string, ApplicantLedger>();
  const saves: (Outcome & { phase: Phase })[] = [];
  const submits: (SubmitOutcome & { phase: Phase })[] = [];
  const inFlight: Promise<unknown>[] = [];
  const sends: ScheduledSend[] = [];

  for (const applicant of savers) {
    const ledger = new AnswerLedger(COMPLETE_FIXTURE.answers);
    ledgers.set(applicant.email, { applicant, answers: ledger });
    // The SPA saves one patch at a time (answer-saver.ts): a save due while the previous one is
    // still out waits for it, and that wait counts in its latency.
    let chain: Promise<unknown> = Promise.resolve();
    const span = SAVE_EVERY_MS.max - SAVE_EVERY_MS.min;
    let due = perfOf(baselineStartWall) + random() * SAVE_EVERY_MS.max;
    while (due < perfOf(endWall)) {
      const scheduled = due;
      sends.push({
        at: scheduled,
        fire: () => {
          chain = chain.then(async () => {
            const patch = createSavePatch();
            ledger.recordSent(patch);
            const { status, body, sentAt } = await sendRequest(
              agentFor.get(applicant.url)!,
              `${applicant.url}${API_ROUTES.answer}`,
              { method: 'PUT', cookie: applicant.cookie, body: JSON.stringify(patch) },
            );
            if (status >= 200 && status < 300) ledger.recordAcknowledged(patch);
            saves.push({
              scheduled,
              sentAt,
              latency: performance.now() - scheduled,
              status,
              code: status >= 300 ? readErrorCode(body) : '',
              phase: phaseOf(scheduled),
            });
          });
          inFlight.push(chain);
        },
      });
      due += SAVE_EVERY_MS.min + random() * span;
    }
  }
  submitters.forEach((applicant, i) => {
    const scheduled = perfOf(mainStartWall) + (i * 1000) / SUBMIT_RATE;
    sends.push({
      at: scheduled,
      fire: () => {
        const agent = agentFor.get(applicant.url)!;
        const work = sendRequest(agent, `${applicant.url}${API_ROUTES.submit}`, {
          method: 'POST',
          cookie: applicant.cookie,
        }).then(async ({ status, body, sentAt }) => {
          const outcome: SubmitOutcome & { phase: Phase } = {
            applicant,
            scheduled,
            sentAt,
            latency: performance.now() - scheduled,
            status,
            code: status >= 300 ? readErrorCode(body) : '',
            pdfRequestedAfter: null,
            pdfStatus: null,
            phase: phaseOf(scheduled),
          };
          submits.push(outcome);
          if (status !== 200) return;
          // The completion page asks for the PDF at once; the first ask queues its job.
          const pdf = await sendRequest(agent, `${applicant.url}${API_ROUTES.applicationPdf}`, {
            method: 'GET',
            cookie: applicant.cookie,
          });
          outcome.pdfStatus = pdf.status;
          outcome.pdfRequestedAfter = performance.now() - scheduled;
        });
        inFlight.push(work);
      },
    });
  });

  console.log(
    `Deadline day: ${savers.length} applicants saving, ${submitters.length} submitting ` +
      `(${SUBMIT_RATE}/s), ${BASELINE_S} s of saves alone, then ${DURATION_S} s; the round ` +
      `closes at ${new Date(closesAt).toISOString()}…`,
  );
  const schedule = await runSchedule(sends);
  await Promise.all(inFlight);
  // The last CPU sample is taken at the end of the load's window, whenever the answers came.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, endWall - Date.now()) + 20));
  const loadEndedAt = Date.now();
  const loadAverageAfter = loadAverage();

  // Read back first: a session idle for 15 minutes ends, and the earliest submitters' would
  // while the PDF jobs drain.
  const readBack = await verifyAcknowledgedWrites(ledgers);
  const submitCheck = await checkSubmissions(submits, closesAt, notEnforced === null);
  const jobs = await drainPdfJobs(database.url, PDF_DRAIN_S * 1000);
  const drainedIn = Date.now() - loadEndedAt;

  // Figures.
  const phaseSeconds: Record<Phase, number> = {
    baseline: BASELINE_S,
    before: DURATION_S / 2,
    after: DURATION_S / 2,
  };
  const savesIn = (phase: Phase) => saves.filter((s) => s.phase === phase);
  const submitsIn = (phase: Phase) => submits.filter((s) => s.phase === phase);
  const perSecond = (n: number, phase: Phase) => (n / phaseSeconds[phase]).toFixed(1);
  const phaseLabel: Record<Phase, string> = {
    baseline: `saves alone (baseline, ${BASELINE_S} s)`,
    before: `with submits, before the deadline (${DURATION_S / 2} s)`,
    after: `with submits, after the deadline (${DURATION_S / 2} s)`,
  };
  const saveRows = (['baseline', 'before', 'after'] as const).map((phase): BenchCell[] => {
    const list = savesIn(phase);
    return [
      phaseLabel[phase],
      list.length,
      perSecond(list.length, phase),
      perSecond(list.filter((s) => s.status !== 0).length, phase),
      ...latencyCells(list),
      describeStatuses(list),
      phase === 'baseline' ? 'reference' : `p99 ≤ ${TARGET.saveP99Ms} ms`,
    ];
  });
  const submitRows = (['before', 'after'] as const).map((phase): BenchCell[] => {
    const list = submitsIn(phase);
    return [
      phaseLabel[phase],
      list.length,
      perSecond(list.length, phase),
      ...latencyCells(list),
      describeStatuses(list),
      `p99 ≤ ${TARGET.submitP99Ms} ms`,
    ];
  });

  const savesBySide = (side: Side) => saves.filter((s) => sideOf(s.sentAt, closesAt) === side);
  const submitsBySide = (side: Side) => submits.filter((s) => sideOf(s.sentAt, closesAt) === side);
  const savesRefusedBefore = savesBySide('before').filter((s) => !isOk(s));
  const savesAcceptedAfter = savesBySide('after').filter(isOk);
  const submitsRefusedBefore = submitsBySide('before').filter((s) => !isOk(s));
  const submitsAcceptedAfter = submitsBySide('after').filter(isOk);
  const submitsAfterOtherwise = submitsBySide('after').filter((s) => !isOk(s) && !isRoundClosed(s));
  const edgeSubmits = submitsBySide('edge');
  const edgeSaves = savesBySide('edge');

  const completed = jobs.filter((job) => job.completedAt !== null && job.state === 'completed');
  const pending = jobs.filter((job) => PENDING_JOB_STATES.includes(job.state));
  const observedUntil = Date.now();
  // A job not picked up (or not finished) yet has waited at least until now: its lag is a lower
  // bound, and the figures that include one say "≥".
  const pickUp = jobs.map((job) => (job.startedAt ?? observedUntil) - job.createdAt);
  const waitingForPickUp = jobs.some((job) => job.startedAt === null) ? '≥ ' : '';
  const doneWithPending = [
    ...completed.map((job) => job.completedAt! - job.createdAt),
    ...pending.map((job) => observedUntil - job.createdAt),
  ];
  const atLeast = pending.length > 0 ? '≥ ' : '';
  const requested = submits
    .map((s) => s.pdfRequestedAfter)
    .filter((ms): ms is number => ms !== null);
  const accepted = submits.filter(isOk).length;

  const mainSaves = [...savesIn('before'), ...savesIn('after')];
  const savesMet =
    p99Of(savesIn('before')) <= TARGET.saveP99Ms && p99Of(savesIn('after')) <= TARGET.saveP99Ms;
  const submitsMet =
    p99Of(submitsIn('before')) <= TARGET.submitP99Ms &&
    p99Of(submitsIn('after')) <= TARGET.submitP99Ms;
  const correctnessFailures = [
    notEnforced ? `deadline not enforced (${notEnforced})` : '',
    readBack.lost.length > 0 ? `${readBack.lost.length} acknowledged saves lost` : '',
    savesRefusedBefore.length > 0 ? `${savesRefusedBefore.length} saves refused before` : '',
    savesAcceptedAfter.length > 0 ? `${savesAcceptedAfter.length} saves accepted after` : '',
    submitsRefusedBefore.length > 0 ? `${submitsRefusedBefore.length} submits refused before` : '',
    submitsAcceptedAfter.length > 0 ? `${submitsAcceptedAfter.length} submits accepted after` : '',
    submitCheck.acknowledgedNotSubmitted + submitCheck.refusedButSubmitted > 0
      ? 'the server disagrees with what a submitter was told'
      : '',
    submitCheck.submittedAfterClose > 0 ? 'submitted_at after the deadline' : '',
  ].filter(Boolean);
  if (correctnessFailures.length > 0) exitCode = 1;

  // Four samples: baseline start, main start, the deadline, the end; a phase is two of them.
  const cpuPhases: [Phase, number][] = [
    ['baseline', 0],
    ['before', 1],
    ['after', 2],
  ];
  const coresBusy = (from: CpuSample, to: CpuSample, part: (typeof CPU_PARTS)[number]) =>
    (to[part] - from[part]) / (to.at - from.at);
  const cpuRows: BenchCell[][] =
    cpuSamples.length === 4
      ? cpuPhases.map(([phase, i]) => {
          const from = cpuSamples[i]!;
          const to = cpuSamples[i + 1]!;
          const parts = CPU_PARTS.map((part) => coresBusy(from, to, part));
          return [
            phaseLabel[phase],
            ...parts.map((cores) => cores.toFixed(2)),
            parts.reduce((sum, cores) => sum + cores, 0).toFixed(2),
          ];
        })
      : [['not sampled (the load ended before its timers)', '—', '—', '—', '—', '—']];
  // What a request costs the server side (API and PostgreSQL): a save from the baseline, a
  // submit from what the phase before the deadline spent beyond its saves at that cost.
  const serverCpuMs = (i: number) =>
    cpuSamples[i + 1]!.api +
    cpuSamples[i + 1]!.postgres -
    cpuSamples[i]!.api -
    cpuSamples[i]!.postgres;
  const cpuPerSaveMs =
    cpuSamples.length === 4 ? serverCpuMs(0) / Math.max(1, savesIn('baseline').length) : NaN;
  const cpuPerSubmitMs =
    cpuSamples.length === 4
      ? (serverCpuMs(1) - cpuPerSaveMs * savesIn('before').length) /
        Math.max(1, submitsIn('before').length)
      : NaN;
  reportBench({
    id: 'deadline',
    title: 'Deadline day: saves and submits across a round’s deadline (`services/api`, issue #29)',
    command: 'npm run bench -- deadline',
    description:
      `Two API processes and one \`npm run cli -- worker\`, compiled as \`npm start\` runs them ` +
      '(`dist/server.js`, `dist/cli.js`), on the machine’s PostgreSQL (a database created and ' +
      'dropped for the run), with `PARTNER_CONFIG_FILE` declaring one round open since the day ' +
      'before, grace 0; once the applications are seeded, `npm run cli -- rounds update ' +
      '--deadline` puts its deadline in the middle of the measured part and every API process is ' +
      `checked to report it. ${savers.length.toLocaleString('en-US')} applicants save and ` +
      `${submitters.length.toLocaleString('en-US')} others submit, each with a session written ` +
      'straight into the database (account and session rows, no sign-up e-mail or argon2) and an ' +
      'application started in the round (`PUT /api/application`) and made complete through the ' +
      'routes (COMPLETE_FIXTURE’s answers; a submitter’s also its tabs and add-another counts, ' +
      'so that it validates and its PDF shows every block). Each saver sends ' +
      `\`PUT /api/answer\` every ${SAVE_EVERY_MS.min / 1000}–${SAVE_EVERY_MS.max / 1000} s ` +
      '(uniform; one field, the patch `buildAnswerPatch` makes for the SPA), one save at a time as ' +
      `the SPA does; ${SUBMIT_RATE} submitters a second send \`POST /api/submit\` and, after a ` +
      '200, `GET /api/pdf` as the completion page does (its first call queues the PDF job). ' +
      `The first ${BASELINE_S} s carry the saves alone (the baseline), then ${DURATION_S} s ` +
      'saves and submits, the deadline at half time. Open loop, by the benchmark’s own ' +
      'scheduler (`test/support/open-loop.ts`) rather than autocannon: every request leaves at a ' +
      'time fixed before the run whatever the answers, and latency counts from that time, so a ' +
      'slow server is not sent less (autocannon’s rate options still wait for each answer on a ' +
      'connection, which hides queueing: coordinated omission). Keep-alive connections, at most ' +
      '1,024 per API process; the applicants are split evenly over the two processes, as a ' +
      'balancer with keep-alive would. A request is judged by the time it was sent (handed to ' +
      'the operating system; this machine’s clock, the server’s too) against the deadline; ' +
      `within ±${EDGE_MS} ms it is “at the edge”, counted apart (the server judges by its ` +
      'receipt time, so one that waits longer than that in a saturated server is refused ' +
      'although sent before). Afterwards every saver’s answers are read back ' +
      '(`GET /api/profile`) against the last acknowledged value per key, every submitter’s ' +
      'application is read back (`GET /api/applications`: submitted or not, and its receipt ' +
      'time), and the PDF jobs’ times are read from pg-boss (`render-application-pdf`) once ' +
      `they have finished or ${PDF_DRAIN_S} s have passed. Per-IP limits raised as in the load ` +
      'benchmark; load shedding as configured (`MAX_EVENT_LOOP_DELAY_MS`, default 1000), ' +
      `\`PDF_CONCURRENCY\` ${process.env.PDF_CONCURRENCY ?? '1 (default)'}.`,
    tables: [
      {
        caption: 'Targets (issue #29)',
        columns: ['target', 'result', 'met'],
        rows: [
          [
            `save p99 ≤ ${TARGET.saveP99Ms} ms (before and after the deadline)`,
            `${formatMs(p99Of(savesIn('before')))} / ${formatMs(p99Of(savesIn('after')))}`,
            met(savesMet),
          ],
          [
            `submit p99 ≤ ${TARGET.submitP99Ms} ms (before and after the deadline)`,
            `${formatMs(p99Of(submitsIn('before')))} / ${formatMs(p99Of(submitsIn('after')))}`,
            met(submitsMet),
          ],
          ['acknowledged saves lost', readBack.lost.length, met(readBack.lost.length === 0)],
          [
            'submits sent before the deadline and refused',
            submitsRefusedBefore.length,
            met(submitsRefusedBefore.length === 0),
          ],
          [
            'submits sent after the deadline and accepted',
            submitsAcceptedAfter.length,
            met(submitsAcceptedAfter.length === 0 && notEnforced === null),
          ],
        ],
      },
      {
        caption: 'Saves (`PUT /api/answer`), latency from each save’s due time',
        columns: [
          'phase',
          'saves',
          'sent/s',
          'answered/s',
          'p50',
          'p99',
          'max',
          'statuses',
          'target',
        ],
        rows: saveRows,
      },
      {
        caption: 'Submits (`POST /api/submit`), latency from each submit’s due time',
        columns: ['phase', 'submits', 'sent/s', 'p50', 'p99', 'max', 'statuses', 'target'],
        rows: submitRows,
      },
      {
        caption:
          'Where the CPU went: cores busy (CPU seconds per second of the phase) for each part of ' +
          'the stack, read from /proc at the phases’ edges',
        columns: [
          'phase',
          'API processes (with their children)',
          'worker (with sandbox and LibreOffice)',
          'PostgreSQL (every backend)',
          'load generator',
          'all',
        ],
        rows: cpuRows,
      },
      {
        caption: `Application PDF jobs (\`${PDF_QUEUE_NAME}\`, pg-boss), lag from the job’s creation`,
        columns: ['measure', 'result'],
        rows: [
          [
            'submits accepted / jobs queued / completed / failed / pending at the end',
            `${accepted} / ${jobs.length} / ${completed.length} / ` +
              `${jobs.filter((j) => j.state === 'failed').length} / ${pending.length}`,
          ],
          [
            'submit due → `GET /api/pdf` answered (the job queued), p50 / p99',
            `${formatMs(percentile(requested, 50))} / ${formatMs(percentile(requested, 99))}`,
          ],
          [
            'queued → picked up by the worker, p50 / p99 / max (jobs not picked up count as waiting until now)',
            `${waitingForPickUp}${formatMs(percentile(pickUp, 50))} / ` +
              `${waitingForPickUp}${formatMs(percentile(pickUp, 99))} / ` +
              `${waitingForPickUp}${formatMs(maxOf(pickUp))}`,
          ],
          [
            'queued → completed, p50 / p99 / max (pending ones count as waiting until now)',
            `${atLeast}${formatMs(percentile(doneWithPending, 50))} / ` +
              `${atLeast}${formatMs(percentile(doneWithPending, 99))} / ` +
              `${atLeast}${formatMs(maxOf(doneWithPending))}`,
          ],
          ['from the end of the load until no job was pending (or gave up)', seconds(drainedIn)],
        ],
      },
      {
        caption: `Read back after the run (a request is judged by its send time; ±${EDGE_MS} ms of the deadline is the edge)`,
        columns: ['check', 'result', 'target'],
        rows: [
          [
            'acknowledged saves read back: applicants / answer keys / lost',
            `${readBack.applicants} / ${readBack.keys} / ${readBack.lost.length}`,
            '0 lost',
          ],
          [
            'saves sent before the deadline: accepted / refused',
            `${savesBySide('before').length - savesRefusedBefore.length} / ${savesRefusedBefore.length}` +
              (savesRefusedBefore.length > 0 ? ` (${describeStatuses(savesRefusedBefore)})` : ''),
            '0 refused',
          ],
          [
            'saves sent after the deadline: refused 409 ROUND_CLOSED / other / accepted',
            `${savesBySide('after').filter(isRoundClosed).length} / ` +
              `${savesBySide('after').filter((s) => !isOk(s) && !isRoundClosed(s)).length} / ` +
              savesAcceptedAfter.length,
            '0 accepted',
          ],
          [
            'saves at the edge: accepted / refused',
            `${edgeSaves.filter(isOk).length} / ${edgeSaves.filter((s) => !isOk(s)).length}`,
            '—',
          ],
          [
            'submits sent before the deadline: accepted / refused',
            `${submitsBySide('before').length - submitsRefusedBefore.length} / ${submitsRefusedBefore.length}` +
              (submitsRefusedBefore.length > 0
                ? ` (${describeStatuses(submitsRefusedBefore)})`
                : ''),
            '0 refused',
          ],
          [
            'submits sent after the deadline: refused 409 ROUND_CLOSED / other / accepted',
            `${submitsBySide('after').filter(isRoundClosed).length} / ` +
              `${submitsAfterOtherwise.length} / ${submitsAcceptedAfter.length}`,
            '0 accepted',
          ],
          [
            'submits at the edge: accepted / refused',
            `${edgeSubmits.filter(isOk).length} / ${edgeSubmits.filter((s) => !isOk(s)).length}`,
            '—',
          ],
          [
            'submitters read back: checked / told 200 but not submitted / refused but submitted / submitted after the deadline',
            `${submitCheck.checked} / ${submitCheck.acknowledgedNotSubmitted} / ` +
              `${submitCheck.refusedButSubmitted} / ${submitCheck.submittedAfterClose}`,
            '0 / 0 / 0',
          ],
        ],
      },
    ],
    notes: [
      ...(notEnforced
        ? [
            `**Not a deadline-day result: the deadline was not enforced in this run** ` +
              `(${notEnforced}).`,
          ]
        : []),
      `Machine: ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
        `Node ${process.version}; the load generator, both API processes, the worker and ` +
        `PostgreSQL share the cores. Load average 1/5/15 min at the end of the load: ${loadAverageAfter}.`,
      `The load generator’s own lag (how late a request left after its due time, included in ` +
        `the latencies): p99 ${formatMs(percentile(schedule.lateness, 99))}, max ` +
        `${formatMs(maxOf(schedule.lateness))}; saves p99 over the whole ` +
        `measured part ${formatMs(p99Of(mainSaves))}.`,
      `Server-side CPU (API processes and PostgreSQL) per request: ${cpuPerSaveMs.toFixed(2)} ms ` +
        `per save in the baseline; ${cpuPerSubmitMs.toFixed(1)} ms per submit with its ` +
        '`GET /api/pdf` before the deadline (what the API and PostgreSQL spent in that phase ' +
        'beyond its saves at the baseline’s cost, over its submits). Two cores give 2,000 ms of ' +
        'CPU a second to everything.',
      `Start-up of the stack (build when stale, migrate, two API processes, worker): ` +
        `${seconds(stackReadyIn)}; seeding ${applicants.length.toLocaleString('en-US')} ` +
        `applicants: ${seconds(seededIn)} (account and session rows ${seconds(rowsIn)}, then ` +
        'their applications through the routes).',
      ...(correctnessFailures.length > 0
        ? [`Failed: ${correctnessFailures.join('; ')}.`]
        : ['Every check after the run passed.']),
      ...(readBack.lost.length > 0
        ? [`Lost saves (first 5): ${JSON.stringify(readBack.lost.slice(0, 5))}`]
        : []),
      ...(savesRefusedBefore.length > 0
        ? [
            'Saves refused although sent before the deadline (first 5: ms before it, latency): ' +
              savesRefusedBefore
                .slice(0, 5)
                .map(
                  (s) => `${closesAt - s.sentAt} ms, ${formatMs(s.latency)} ${s.status} ${s.code}`,
                )
                .join('; '),
          ]
        : []),
      ...(submitsRefusedBefore.length > 0
        ? [
            'Submits refused although sent before the deadline (first 5: ms before it, latency): ' +
              submitsRefusedBefore
                .slice(0, 5)
                .map(
                  (s) => `${closesAt - s.sentAt} ms, ${formatMs(s.latency)} ${s.status} ${s.code}`,
                )
                .join('; '),
          ]
        : []),
    ],
  });
} finally {
  for (const agent of agents) agent.destroy();
  await stack?.stop();
  await database.drop();
  rmSync(configDir, { recursive: true, force: true });
}
process.exit(exitCode);
