// The two fault scenarios of issue #9, shared by the CI test (test/faults.test.ts) and the
// benchmark (bench/fault-bench.ts): they drive real processes over HTTP and return what a client
// saw; the callers assert (test) or print numbers (bench). Nothing here imports vitest.
//
// 1. PostgreSQL stopped under load: authenticated clients save answers (PUT /api/answer) and read
//    the profile (GET /api/profile) without pause; the private cluster is stopped, left down,
//    started again. Every response is recorded; each client remembers the last value the server
//    acknowledged (2xx) per field, and after the run every applicant's stored answers are compared
//    with it.
// 2. kill -9 of the worker: documents are uploaded through the API the way the SPA does, the
//    worker is killed while some convert, a new worker is started, and the statuses are polled
//    until every document is final.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/connect';
import { applications } from '../../src/modules/application';
import { users } from '../../src/modules/auth';
import { createSession } from '../../src/modules/auth/sessions';
import type { ProcessStack } from './process-stack';
import { AnswerLedger } from './answer-ledger';
import type { PrivatePostgres } from './private-postgres';
import { multipartBody } from './upload-client';
import { buildDocx, buildPdf, buildPng, buildTwoPageDocx, paragraph } from './document-fixtures';

/** Longest wait for one request; a refused request must come back well within it. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface Applicant {
  userId: string;
  email: string;
  /** The session cookie's value (`sid`, plain http). */
  sid: string;
}

export interface DirectSeedOptions {
  /**
   * Also write an empty application (default). Without it the service starts the application
   * at the applicant's first request, as it does for a new account (the deadline bench lets the
   * service put it in a round).
   */
  withApplication?: boolean;
  /** The e-mail addresses are `<prefix><i>.<random>@example.edu`. */
  emailPrefix?: string;
  /** Applicants written at the same time (thousands for a benchmark). */
  concurrency?: number;
}

/**
 * Applicants with a confirmed account, an empty application and a live session, written straight
 * into the database (no sign-up e-mails, no argon2): the scenarios are about what happens next.
 */
export async function seedApplicants(
  databaseUrl: string,
  count: number,
  { withApplication = true, emailPrefix = 'fault', concurrency = 1 }: DirectSeedOptions = {},
): Promise<Applicant[]> {
  const database = await openDatabase({
    databaseUrl,
    dataDir: '/nonexistent',
    poolSize: Math.max(2, concurrency),
  });
  try {
    const seeded: Applicant[] = new Array<Applicant>(count);
    let next = 0;
    const seedOne = async (i: number) => {
      const userId = randomUUID();
      const email = `${emailPrefix}${i}.${userId.slice(0, 8)}@example.edu`;
      await database.db.insert(users).values({
        id: userId,
        email,
        passwordHash: 'seeded-without-a-password',
        confirmedAt: new Date(),
      });
      if (withApplication) {
        await database.db.insert(applications).values({
          id: userId,
          userId,
          roundCode: 'DEFAULT',
          answer: {},
          sensitive: {},
          addAnother: {},
          tabs: {},
          webStatus: ['started'],
        });
      }
      seeded[i] = { userId, email, sid: await createSession(database.db, userId, new Date()) };
    };
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) await seedOne(next++);
      }),
    );
    return seeded;
  } finally {
    await database.close();
  }
}

export interface RequestRecord {
  kind: 'put-answer' | 'get-profile';
  /** Which API process (index into stack.urls). */
  api: number;
  /** performance.now() at send and at the end of the response (or of the failure). */
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when no response came (connection refused, time-out). */
  status: number;
  body: string;
  retryAfter: string | null;
}

const ANSWER_FIELDS = ['first_name', 'middle_name', 'last_name'] as const;

async function send(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: string; retryAfter: string | null }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    return {
      status: response.status,
      body: await response.text(),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    return { status: 0, body: String(error), retryAfter: null };
  }
}

export interface AnswerLoad {
  records: RequestRecord[];
  /** Stops the clients and waits for their last requests. */
  stop(): Promise<void>;
  /** What each applicant's answers must read back as, by user id. */
  ledgers: Map<string, AnswerLedger>;
}

/**
 * One client per applicant, round-robin over the API processes: 4 saves for each profile read.
 * Each save writes a new value (`<client>-<n>`) to one of three fields. A refused request is
 * retried after `backoffMs` (a real client would honour Retry-After; a short pause keeps the
 * outage well sampled).
 */
export function startAnswerLoad(
  stack: Pick<ProcessStack, 'urls'>,
  applicants: Applicant[],
  options: { backoffMs?: number } = {},
): AnswerLoad {
  const backoffMs = options.backoffMs ?? 100;
  const records: RequestRecord[] = [];
  const ledgers = new Map<string, AnswerLedger>();
  let stopped = false;
  const clients = applicants.map(async (applicant, index) => {
    const api = index % stack.urls.length;
    const base = stack.urls[api]!;
    const headers = { cookie: `sid=${applicant.sid}` };
    const ledger = new AnswerLedger();
    ledgers.set(applicant.userId, ledger);
    for (let n = 0; !stopped; n++) {
      const startedAt = performance.now();
      let kind: RequestRecord['kind'];
      let result: Awaited<ReturnType<typeof send>>;
      if (n % 5 === 4) {
        kind = 'get-profile';
        result = await send(`${base}/api/profile`, { headers });
      } else {
        kind = 'put-answer';
        const field = ANSWER_FIELDS[n % ANSWER_FIELDS.length]!;
        const patch = { [field]: `c${index}-${n}` };
        ledger.recordSent(patch);
        result = await send(`${base}/api/answer`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(patch),
        });
        if (result.status >= 200 && result.status < 300) ledger.recordAcknowledged(patch);
      }
      records.push({ kind, api, startedAt, endedAt: performance.now(), ...result });
      if (result.status < 200 || result.status >= 300) await delay(backoffMs);
    }
  });
  return {
    records,
    ledgers,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

export interface LostWrite {
  userId: string;
  field: string;
  acknowledged: string;
  stored: string | undefined;
}

/**
 * Reads every applicant's answers back through the API and compares them with what was
 * acknowledged. A field may hold a later value than the last acknowledged one (a save that
 * committed while its answer was lost with the connection), never an earlier or a missing one.
 */
export async function findLostWrites(
  stack: Pick<ProcessStack, 'urls'>,
  applicants: Applicant[],
  load: AnswerLoad,
): Promise<{ checked: number; lost: LostWrite[] }> {
  const lost: LostWrite[] = [];
  let checked = 0;
  for (const applicant of applicants) {
    const response = await fetch(`${stack.urls[0]}/api/profile`, {
      headers: { cookie: `sid=${applicant.sid}` },
    });
    if (response.status !== 200) throw new Error(`profile read-back: ${response.status}`);
    const { answer } = (await response.json()) as { answer: Record<string, string> };
    const ledger = load.ledgers.get(applicant.userId)!;
    checked += ledger.size;
    for (const { key, expected, actual } of ledger.findLost(answer)) {
      lost.push({ userId: applicant.userId, field: key, acknowledged: expected, stored: actual });
    }
  }
  return { checked, lost };
}

/** GET /health of each API process: status and body. */
export async function readHealth(
  stack: Pick<ProcessStack, 'urls'>,
): Promise<{ status: number; body: string }[]> {
  return Promise.all(
    stack.urls.map(async (url) => {
      const result = await send(`${url}/health`, {});
      return { status: result.status, body: result.body };
    }),
  );
}

export interface OutageResult {
  /**
   * performance.now() when PostgreSQL was down (`pg_ctl stop` returned), when `pg_ctl start` was
   * run and when it returned (the server accepts connections a little before pg_ctl notices).
   */
  downAt: number;
  startAt: number;
  upAt: number;
  /** Requests sent after the stop and answered before the start was run. */
  duringOutage: RequestRecord[];
  /** /health while down and after recovery. */
  healthDown: { status: number; body: string }[];
  healthUp: { status: number; body: string }[];
  /** Per API process: ms from `pg_ctl start` to that process's first 2xx. */
  recoveryMs: number[];
  /** Requests that got a 2xx after the recovery, across all processes. */
  okAfter: number;
  checked: number;
  lost: LostWrite[];
  records: RequestRecord[];
}

/**
 * Load for `warmupMs`, PostgreSQL stopped for `outageMs`, started again, load until every API
 * process has served a 2xx again and `afterMs` more; then the read-back of acknowledged writes.
 */
export async function runOutageScenario(options: {
  stack: Pick<ProcessStack, 'urls'>;
  postgres: PrivatePostgres;
  applicants: Applicant[];
  warmupMs: number;
  outageMs: number;
  afterMs: number;
}): Promise<OutageResult> {
  const { stack, postgres, applicants } = options;
  const load = startAnswerLoad(stack, applicants);
  let downAt = 0;
  let startAt = 0;
  let upAt = 0;
  let healthDown: { status: number; body: string }[] = [];
  try {
    await delay(options.warmupMs);
    await postgres.stop();
    downAt = performance.now();
    await delay(Math.min(1000, options.outageMs / 2));
    healthDown = await readHealth(stack);
    await delay(Math.max(0, options.outageMs - (performance.now() - downAt)));
    startAt = performance.now();
    await postgres.start();
    upAt = performance.now();
    const recoveryDeadline = upAt + 60_000;
    const recovered = () =>
      stack.urls.every((_, api) =>
        load.records.some((r) => r.api === api && r.startedAt >= startAt && r.status === 200),
      );
    while (!recovered() && performance.now() < recoveryDeadline) await delay(50);
    await delay(options.afterMs);
  } finally {
    await load.stop();
  }
  const healthUp = await readHealth(stack);
  const recoveryMs = stack.urls.map((_, api) => {
    const first = load.records
      .filter((r) => r.api === api && r.startedAt >= startAt && r.status >= 200 && r.status < 300)
      .sort((a, b) => a.endedAt - b.endedAt)[0];
    return first ? first.endedAt - startAt : Number.NaN;
  });
  const { checked, lost } = await findLostWrites(stack, applicants, load);
  return {
    downAt,
    startAt,
    upAt,
    duringOutage: load.records.filter((r) => r.startedAt >= downAt && r.endedAt <= startAt),
    healthDown,
    healthUp,
    recoveryMs,
    okAfter: load.records.filter((r) => r.startedAt >= startAt && r.status >= 200 && r.status < 300)
      .length,
    checked,
    lost,
    records: load.records,
  };
}

// ---- worker kill ----------------------------------------------------------------------------

/** The file questions each applicant answers (two `_doc` questions of the application). */
export const DOCUMENT_KEYS = ['personal_statement_doc', 'honors_statement_doc'] as const;

export interface UploadedDocument {
  applicant: Applicant;
  answerKey: string;
  fileName: string;
  kind: 'docx' | 'png' | 'pdf';
}

/** A statement long enough that LibreOffice works on it for a while (a few hundred ms to s). */
function buildLongDocx(seed: number): Uint8Array {
  let body = '';
  for (let i = 0; i < 400; i++) {
    body += paragraph(`Statement ${seed}, paragraph ${i}: ${'analytical engines '.repeat(12)}`);
  }
  return buildDocx({ body });
}

async function buildDocument(
  kind: UploadedDocument['kind'],
  seed: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  if (kind === 'docx') {
    return {
      name: `statement-${seed}.docx`,
      bytes: seed % 2 === 0 ? buildLongDocx(seed) : buildTwoPageDocx(),
    };
  }
  if (kind === 'png') {
    return {
      name: `scan-${seed}.png`,
      bytes: buildPng(600, 800, (x, y) => [(x + seed) % 256, (y * 3) % 256, (x ^ y) % 256]),
    };
  }
  return { name: `records-${seed}.pdf`, bytes: await buildPdf(`Records of applicant ${seed}`) };
}

/**
 * Presigned URL, multipart upload to the storage route, start of the conversion: the SPA's three
 * calls, against the first API process. `kinds` is the file type of each document, in order; the
 * documents go to `DOCUMENT_KEYS` of the applicants in turn.
 */
export async function uploadDocuments(
  stack: Pick<ProcessStack, 'urls'>,
  applicants: Applicant[],
  kinds: UploadedDocument['kind'][],
): Promise<UploadedDocument[]> {
  const base = stack.urls[0]!;
  const uploads = kinds.map(async (kind, i) => {
    const applicant = applicants[Math.floor(i / DOCUMENT_KEYS.length) % applicants.length]!;
    const answerKey = DOCUMENT_KEYS[i % DOCUMENT_KEYS.length]!;
    const cookie = `sid=${applicant.sid}`;
    const presign = await fetch(`${base}/api/presigned-url`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ answer_key: answerKey }),
    });
    if (presign.status !== 200)
      throw new Error(`presign ${presign.status}: ${await presign.text()}`);
    const { url, fields } = (await presign.json()) as {
      url: string;
      fields: Record<string, string>;
    };
    const file = await buildDocument(kind, i);
    const { payload, headers } = multipartBody(fields, file);
    const uploaded = await fetch(new URL(url, base), {
      method: 'POST',
      headers,
      body: payload,
    });
    if (uploaded.status !== 204) {
      throw new Error(`upload ${uploaded.status}: ${await uploaded.text()}`);
    }
    const started = await fetch(`${base}/api/pdf/document-answer/${answerKey}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ file_key: fields.key, file_name: file.name }),
    });
    if (started.status < 200 || started.status >= 300) {
      throw new Error(`start ${started.status}: ${await started.text()}`);
    }
    return { applicant, answerKey, fileName: file.name, kind };
  });
  return Promise.all(uploads);
}

/** The conversion status of each document, as GET /api/pdf/document-answer/<key> reports it. */
export async function readStatuses(
  stack: Pick<ProcessStack, 'urls'>,
  documents: UploadedDocument[],
): Promise<string[]> {
  return Promise.all(
    documents.map(async (doc) => {
      const response = await fetch(`${stack.urls[0]}/api/pdf/document-answer/${doc.answerKey}`, {
        headers: { cookie: `sid=${doc.applicant.sid}` },
      });
      if (response.status !== 200) return `HTTP ${response.status}`;
      return ((await response.json()) as { status: string }).status;
    }),
  );
}

const FINAL_STATUSES = new Set(['COMPLETED', 'FAILED']);

/** Counts of each status, e.g. { COMPLETED: 10, FAILED: 1 }. */
export function countStatuses(statuses: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Direct children of a process (from /proc), e.g. the worker's soffice.bin and UNO bridges. */
export function listChildren(pid: number): { pid: number; command: string }[] {
  const children: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? '';
      children.push({ pid: Number(entry), command });
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie answers signal 0 too; it holds no resources but its entry.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

export interface WorkerKillResult {
  documents: UploadedDocument[];
  /** Statuses read just before the kill (from the database, so none is missed). */
  atKill: Record<string, number>;
  /** The killed worker's children (soffice.bin, UNO bridges) and which outlived it. */
  children: { pid: number; command: string }[];
  orphans: { pid: number; command: string }[];
  /** Those still running once every document was final. */
  orphansAtEnd: { pid: number; command: string }[];
  /** ms from the new worker being ready to every document final (NaN if it never happened). */
  restartToFinalMs: number;
  /** ms from the kill to every document final. */
  killToFinalMs: number;
  finalStatuses: string[];
}

async function countConversionStatuses(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string; n: string }>(
      'SELECT status, count(*) AS n FROM document_conversions GROUP BY status',
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  } finally {
    await client.end();
  }
}

/**
 * Uploads the documents, waits until at least `inFlightAtLeast` convert (IN_PROGRESS), kills the
 * worker with SIGKILL (the process alone, as the OOM killer would, not its process group), starts
 * a new worker and polls until every document is final or `finalWithinMs` passes.
 */
export async function runWorkerKillScenario(options: {
  stack: ProcessStack;
  databaseUrl: string;
  applicants: Applicant[];
  kinds: UploadedDocument['kind'][];
  inFlightAtLeast?: number;
  finalWithinMs: number;
}): Promise<WorkerKillResult> {
  const { stack } = options;
  const victim = stack.workers.filter((w) => w.isRunning()).at(-1);
  if (!victim) throw new Error('no running worker to kill');
  const documents = await uploadDocuments(stack, options.applicants, options.kinds);
  const wanted = options.inFlightAtLeast ?? 1;
  const waitDeadline = Date.now() + 60_000;
  let atKill: Record<string, number> = {};
  for (;;) {
    atKill = await countConversionStatuses(options.databaseUrl);
    if ((atKill.IN_PROGRESS ?? 0) >= wanted) break;
    if (Date.now() > waitDeadline) {
      throw new Error(`no conversion in progress within 60 s: ${JSON.stringify(atKill)}`);
    }
    await delay(20);
  }
  const children = listChildren(victim.pid);
  process.kill(victim.pid, 'SIGKILL');
  const killedAt = performance.now();
  await victim.exited;
  await delay(500);
  const orphans = children.filter((child) => isAlive(child.pid));
  await stack.startWorker();
  const restartedAt = performance.now();
  const deadline = restartedAt + options.finalWithinMs;
  let finalStatuses: string[] = [];
  let finalAt = Number.NaN;
  while (performance.now() < deadline) {
    finalStatuses = await readStatuses(stack, documents);
    if (finalStatuses.every((s) => FINAL_STATUSES.has(s))) {
      finalAt = performance.now();
      break;
    }
    await delay(250);
  }
  return {
    documents,
    atKill,
    children,
    orphans,
    orphansAtEnd: orphans.filter((child) => isAlive(child.pid)),
    restartToFinalMs: finalAt - restartedAt,
    killToFinalMs: finalAt - killedAt,
    finalStatuses,
  };
}

/** Kills leftover processes of a killed worker (its orphaned LibreOffice), by pid. */
export function killOrphans(orphans: { pid: number }[]): void {
  for (const { pid } of orphans) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** `ps` line of a pid, for reports ("" when gone). */
export function describeProcess(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'pid=,ppid=,comm=', '-p', String(pid)])
      .toString()
      .trim();
  } catch {
    return '';
  }
}
