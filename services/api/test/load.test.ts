// The short CI version of the load suite (issue #9; the full run is bench/load-bench.ts): two real
// API processes and one worker on PostgreSQL, 20 applicants signed up, confirmed and logged in
// through the real routes, then autocannon with 20 connections for 8 s (LOAD_TEST_DURATION_S) at
// 70% PUT /api/answer, 20% GET /api/profile, 10% lookups. No timing is asserted: what must hold
// is that nothing failed and that every acknowledged write reads back.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createScratchDatabase,
  startProcessStack,
  type ProcessStack,
} from './support/process-stack';
import {
  LOAD_RATE_LIMIT_ENV,
  ROUTE_NAMES,
  importSchools,
  runLoad,
  seedApplicants,
  verifyAcknowledgedWrites,
  type Applicant,
} from './support/load-run';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.LOAD_TEST_DURATION_S ?? 8);
const adminUrl = inject('postgresUrl');

describe.skipIf(!adminUrl)('load: two API processes and a worker on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let stack: ProcessStack | undefined;
  let applicants: Applicant[] = [];
  let lookupTexts: string[] = [];

  beforeAll(async () => {
    database = await createScratchDatabase(adminUrl!, 'load');
    stack = await startProcessStack({
      databaseUrl: database.url,
      // As `npm start` and the image run it: dist/, whose processes and sandbox children start
      // without compiling the sources again.
      compiled: true,
      // Other test files run beside this one in CI: a 503 here must not come from load shedding
      // reacting to them (the full bench keeps the production setting).
      env: { ...LOAD_RATE_LIMIT_ENV, MAX_EVENT_LOOP_DELAY_MS: '0' },
    });
    [applicants, lookupTexts] = await Promise.all([
      seedApplicants(stack, CONNECTIONS),
      importSchools(stack, 2000),
    ]);
  }, 150_000);

  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  }, 60_000);

  it('answers every request of the 70/20/10 mix with 2xx and keeps every acknowledged write', async () => {
    const { result, routes, ledgers } = await runLoad({
      applicants,
      durationS: DURATION_S,
      lookupTexts,
    });
    const statuses = Object.fromEntries(
      ROUTE_NAMES.map((name) => [name, Object.fromEntries(routes.get(name)!.statuses)]),
    );
    const failures = stack!.apis.map((api) => `${api.name}:\n${api.tail(2000)}`).join('\n');
    expect(
      { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
      failures,
    ).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
    // Every route of the mix was exercised and answered 200 only.
    for (const name of ROUTE_NAMES) {
      expect(Object.keys(statuses[name]!), `${name}: ${JSON.stringify(statuses)}`).toEqual(['200']);
    }
    const check = await verifyAcknowledgedWrites(ledgers);
    expect(check.applicants).toBe(CONNECTIONS);
    expect(check.keys).toBeGreaterThan(0);
    expect(check.lost).toEqual([]);
  }, 90_000);
});
