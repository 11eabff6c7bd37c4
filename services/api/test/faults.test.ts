// The fault suite, short version for CI (issue #9; the full run with its numbers is
// bench/fault-bench.ts): a private PostgreSQL cluster, one API process and one worker as real
// processes. PostgreSQL is stopped for 4 s under the load of 8 applicants saving answers, then a
// batch of documents is uploaded and the worker is killed with SIGKILL while they convert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { availableDrivers } from './support/test-runtime';
import {
  findFreePorts,
  findPostgresBin,
  startPrivatePostgres,
  type PrivatePostgres,
} from './support/private-postgres';
import { startProcessStack, type ProcessStack } from './support/process-stack';
import {
  REQUEST_TIMEOUT_MS,
  killOrphans,
  runOutageScenario,
  runWorkerKillScenario,
  seedApplicants,
  type Applicant,
  type OutageResult,
  type WorkerKillResult,
} from './support/fault-scenarios';

const canRun = availableDrivers().includes('postgres') && findPostgresBin() !== null;

describe.skipIf(!canRun)('faults (PostgreSQL, real processes)', () => {
  let postgres: PrivatePostgres;
  let stack: ProcessStack;
  let applicants: Applicant[];
  let outage: OutageResult;
  let kill: WorkerKillResult | undefined;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    stack = await startProcessStack({
      databaseUrl: postgres.url,
      // As `npm start` and the image run it: dist/, whose processes (the restarted worker too)
      // and sandbox children start without compiling the sources again.
      compiled: true,
      apis: 1,
      workers: 1,
      ports: await findFreePorts(1, 4310, 4319),
      env: {
        GLOBAL_RATE_LIMIT: '1000000',
        PUBLIC_RATE_LIMIT: '1000000',
        // Each client saves without pause on its own account.
        ACCOUNT_RATE_LIMIT: '10000000',
        // Load shedding off: a 503 here must come from the outage, not from a busy test machine.
        MAX_EVENT_LOOP_DELAY_MS: '0',
        // Expiry of a dead worker's job: 2 × 5 s + 10 s, noticed within 5 s (jobs/queue.ts).
        CONVERSION_TIMEOUT_MS: '5000',
        CONVERSION_CONCURRENCY: '2',
      },
    });
    applicants = await seedApplicants(postgres.url, 8);
    outage = await runOutageScenario({
      stack,
      postgres,
      applicants,
      warmupMs: 1500,
      outageMs: 4000,
      afterMs: 1500,
    });
  }, 120_000);

  afterAll(async () => {
    killOrphans(kill?.orphans ?? []);
    await stack?.stop();
    await postgres?.remove();
  }, 60_000);

  it('refuses requests with a generic 503 and Retry-After while PostgreSQL is down', () => {
    expect(outage.duringOutage.length).toBeGreaterThan(0);
    const statuses = new Set(outage.duringOutage.map((r) => r.status));
    expect([...statuses]).toEqual([503]);
    for (const record of outage.duringOutage) {
      expect(JSON.parse(record.body)).toEqual({
        message: MESSAGES.unavailable,
        code: 'UNAVAILABLE',
      });
      expect(record.retryAfter).toMatch(/^\d+$/);
      // Answered, not timed out: a refused request never waits for the request time-out.
      expect(record.endedAt - record.startedAt).toBeLessThan(REQUEST_TIMEOUT_MS);
    }
    expect(outage.healthDown.map((h) => h.status)).toEqual([503]);
    expect(outage.healthDown[0]!.body).not.toMatch(/ECONN|postgres|127\.0\.0\.1|:\d{4}|stack/i);
  });

  it('serves again once PostgreSQL is back, without a restart, and loses no acknowledged write', () => {
    expect(outage.okAfter).toBeGreaterThan(0);
    expect(outage.recoveryMs.every(Number.isFinite)).toBe(true);
    expect(outage.healthUp.map((h) => h.status)).toEqual([200]);
    expect(stack.apis.every((api) => api.isRunning())).toBe(true);
    expect(outage.checked).toBeGreaterThan(applicants.length);
    expect(outage.lost).toEqual([]);
  });

  it('brings every document to a final status after the worker is killed mid-conversion', async () => {
    kill = await runWorkerKillScenario({
      stack,
      databaseUrl: postgres.url,
      applicants,
      kinds: ['docx', 'docx', 'png', 'docx', 'pdf', 'docx', 'png', 'docx'],
      finalWithinMs: 60_000,
    });
    expect(kill.atKill.IN_PROGRESS).toBeGreaterThan(0);
    expect(kill.finalStatuses.every((s) => s === 'COMPLETED' || s === 'FAILED')).toBe(true);
    // Nothing was wrong with the documents: the retry after the expiry converts them.
    expect(kill.finalStatuses.filter((s) => s === 'COMPLETED')).toHaveLength(kill.documents.length);
    // The killed worker's LibreOffice dies with it (setpriv --pdeathsig) rather than run on.
    expect(kill.children.some((child) => child.command.includes('soffice'))).toBe(true);
    expect(kill.orphans.filter((child) => child.command.includes('soffice'))).toEqual([]);
  }, 90_000);
});
