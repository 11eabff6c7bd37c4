// The one line per request (src/platform/http/request-log.ts), written without pino's generic
// path: what a log collector reads from it — one JSON object with the fields pino wrote before,
// the query values redacted — and request.log still logging with the request's id when used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '@admissions/api-contract';
import { createTestRuntime, type TestRuntime } from './support/test-runtime';

function readRecords(t: TestRuntime): Record<string, unknown>[] {
  return t.logs
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request log line', () => {
  let t: TestRuntime;
  beforeAll(async () => {
    t = await createTestRuntime('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is one JSON record per request with method, redacted URL, address, status and time', async () => {
    const response = await t.request({
      method: 'GET',
      url: `${API_ROUTES.lookupFind}?category=hs_ceeb&text=secret-school&max_results=5`,
    });
    const record = readRecords(t)
      .filter((r) => r.msg === 'request completed')
      .at(-1);
    expect(record).toMatchObject({
      level: 30,
      pid: process.pid,
      req: {
        method: 'GET',
        url: `${API_ROUTES.lookupFind}?category=hs_ceeb&text=[REDACTED]&max_results=5`,
        remoteAddress: '127.0.0.1',
      },
      res: { statusCode: response.statusCode },
      msg: 'request completed',
    });
    expect(typeof record?.time).toBe('number');
    expect(typeof record?.reqId).toBe('string');
    expect(typeof record?.responseTime).toBe('number');
    expect(t.logs.join('')).not.toContain('secret-school');
  });

  it("logs through request.log with the request's id when a route uses it", async () => {
    // A service token that does not verify: service-routes.ts logs the refusal on request.log.
    await t.request({ method: 'GET', url: `${API_ROUTES.servicePrint}?service_token=nonsense` });
    const refusal = readRecords(t).find((r) => r.msg === 'service token refused');
    expect(refusal).toBeDefined();
    const completed = readRecords(t).filter(
      (r) => r.msg === 'request completed' && r.reqId === refusal?.reqId,
    );
    expect(completed).toHaveLength(1);
  });
});
