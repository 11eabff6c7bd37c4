// Isolation (issue #14): on the embedded default — PGlite, the job worker inside the API process,
// as `npm start` runs — the API keeps answering while the worst files an applicant can upload are
// converted and the application PDFs that contain them are rendered. Whether each file ends up
// accepted or refused is the converters' business (their own tests); this test asserts only what
// every other applicant observes: GET /health and PUT /api/answer stay fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationPdfResponse } from '@admissions/api-contract';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import {
  buildHugePng,
  buildNestedTablesDocx,
  buildObjectStreamBombPdf,
  buildPageTreeBombPdf,
} from './support/hostile-files';
import { LOAD_RATE_LIMIT_ENV } from './support/load-run';
import { createUploadClient } from './support/upload-client';
import { createTestRuntime, registerApplicant, type TestRuntime } from './support/test-runtime';

/** The bound every request must keep at the 99th percentile, however loaded the machine. */
const P99_BOUND_MS = 200;

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

describe('isolation on the embedded default', () => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await createTestRuntime('pglite', {
      ...LOAD_RATE_LIMIT_ENV,
      OFFICE_POOL_SIZE: '1',
      // Shorter than the defaults only so that the killed work ends sooner in a test.
      CONVERSION_TIMEOUT_MS: '15000',
      SANDBOX_CPU_MS: '8000',
      SANDBOX_TIMEOUT_MS: '30000',
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('keeps GET /health and PUT /api/answer under 200 ms p99 while hostile files are converted and rendered', async () => {
    const client = createUploadClient(t);
    const files = {
      png: await buildHugePng(),
      objectStreamBomb: buildObjectStreamBombPdf(),
      pageTreeBomb: buildPageTreeBombPdf(),
      nestedTables: buildNestedTablesDocx(),
    };
    for (const bytes of Object.values(files)) expect(bytes.length).toBeLessThanOrEqual(1024 * 1024);
    const first = await registerApplicant(t, 'hostile.one@example.org');
    const second = await registerApplicant(t, 'hostile.two@example.org');
    const bystander = await registerApplicant(t, 'bystander@example.org');

    // The bystander: one request after another, /health and an answer in turn, until told to stop.
    const failures: string[] = [];
    const probeUntil = async (until: Promise<unknown>) => {
      const latency = { health: [] as number[], answer: [] as number[] };
      let done = false;
      void until.then(
        () => (done = true),
        () => (done = true),
      );
      for (let i = 0; !done; i++) {
        const started = performance.now();
        const response = await t.request(
          i % 2 === 0
            ? { method: 'GET', url: '/health' }
            : {
                method: 'PUT',
                url: '/api/answer',
                body: { first_name: `Bystander${i}` },
                cookies: bystander,
              },
        );
        (i % 2 === 0 ? latency.health : latency.answer).push(performance.now() - started);
        if (response.statusCode !== 200) failures.push(`${response.statusCode} ${response.body}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return latency;
    };
    const idle = await probeUntil(new Promise((resolve) => setTimeout(resolve, 10_000)));

    const hostileWork = (async () => {
      // Both documents of each hostile applicant at once, as two browser tabs would.
      await Promise.all([
        client.upload(first, 'personal_statement_doc', 'scan.png', files.png),
        client.upload(first, 'honors_statement_doc', 'records.pdf', files.objectStreamBomb),
        client.upload(second, 'personal_statement_doc', 'transcript.pdf', files.pageTreeBomb),
        client.upload(second, 'honors_statement_doc', 'essay.docx', files.nestedTables),
      ]);
      const outcomes = await Promise.all([
        client.waitForResult(first, 'personal_statement_doc', 300_000),
        client.waitForResult(first, 'honors_statement_doc', 300_000),
        client.waitForResult(second, 'personal_statement_doc', 300_000),
        client.waitForResult(second, 'honors_statement_doc', 300_000),
      ]);
      for (const outcome of outcomes) expect(['COMPLETED', 'FAILED']).toContain(outcome.status);

      // The application PDFs with whatever was accepted: the applicant's copy (a job) and the
      // staff copy (rendered in the request), both at once.
      const ids = (
        await t.runtime.database.executeSql(
          "SELECT id FROM users WHERE email LIKE 'hostile.%' ORDER BY email",
        )
      ).rows as { id: string }[];
      const renders = [first, second].map(async (jar, index) => {
        const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
          applicationId: ids[index]!.id,
          now: t.clock.now(),
        });
        const staff = t.request({ method: 'GET', url: `/service/pdf?service_token=${token}` });
        const deadline = Date.now() + 300_000;
        for (;;) {
          const response = await t.request({ method: 'GET', url: '/api/pdf', cookies: jar });
          const status = (response.json() as ApplicationPdfResponse).status;
          if (status === 'COMPLETED' || status === 'FAILED') break;
          if (Date.now() > deadline) throw new Error(`application PDF still ${status}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect([200, 503]).toContain((await staff).statusCode);
      });
      await Promise.all(renders);
    })();
    const latency = await probeUntil(hostileWork);
    await hostileWork;

    expect(failures).toEqual([]);
    // 200 ms, unless the machine misses that even while this server is idle (other work on the
    // same cores): then twice the idle p99. Either way a blocked event loop (seconds) fails.
    for (const route of ['health', 'answer'] as const) {
      const summary = {
        route,
        idle: { samples: idle[route].length, p99: Math.round(p99(idle[route])) },
        hostile: { samples: latency[route].length, p99: Math.round(p99(latency[route])) },
      };
      const bound = Math.max(P99_BOUND_MS, 2 * summary.idle.p99);
      expect(summary.hostile.p99, JSON.stringify(summary)).toBeLessThan(bound);
      // Enough samples for a p99 to mean something (a blocked loop also leaves few).
      expect(summary.hostile.samples, JSON.stringify(summary)).toBeGreaterThan(50);
    }
  }, 900_000);
});
