// Horizontal scale (issue #9): opt-in Prometheus metrics, load shedding, rate limits shared
// through Redis, graceful shutdown of the real server process.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, MESSAGES } from '@admissions/api-contract';
import { ConfigError, loadConfig } from '../src/platform/config';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';
import { cliNodeArgs, nodeArgsFor, serviceScript } from './support/process-stack';

const apiDir = path.resolve(import.meta.dirname, '..');

describe('scale configuration', () => {
  it('is off or in memory by default and validates what is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      redisUrl: null,
      metricsEnabled: false,
      metricsToken: null,
      maxEventLoopDelayMs: 1000,
      maxHeapUsedMb: 0,
      busyRetryAfterSeconds: 5,
      shutdownTimeoutMs: 20_000,
    });
    let error: unknown;
    try {
      loadConfig({
        REDIS_URL: 'http://cache:6379',
        METRICS_ENABLED: 'maybe',
        METRICS_TOKEN: 'short',
        MAX_EVENT_LOOP_DELAY_MS: '-1',
        SHUTDOWN_TIMEOUT_MS: '10',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'REDIS_URL',
      'METRICS_ENABLED',
      'METRICS_TOKEN',
      'MAX_EVENT_LOOP_DELAY_MS',
      'SHUTDOWN_TIMEOUT_MS',
    ]) {
      expect(problems).toContain(name);
    }
  });
});

describe('metrics endpoint', () => {
  it('is a JSON 404 when METRICS_ENABLED is off', async () => {
    const t = await createTestRuntime('pglite');
    try {
      const res = await t.request({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: MESSAGES.notFound });
    } finally {
      await t.close();
    }
  });

  describe('when enabled', () => {
    let t: TestRuntime;
    const token = 'scrape-token-0123456789';
    beforeAll(async () => {
      t = await createTestRuntime('pglite', { METRICS_ENABLED: 'true', METRICS_TOKEN: token });
    });
    afterAll(() => t.close());

    const scrape = () =>
      t.request({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });

    it('needs the bearer token when one is configured', async () => {
      const none = await t.request({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toHaveProperty('message');
      const wrong = await t.request({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token.replace('0', 'x')}` },
      });
      expect(wrong.statusCode).toBe(401);
    });

    it('reports request latency by route template, job duration, queue depth and the process', async () => {
      await t.request({ method: 'GET', url: '/health' });
      await t.request({ method: 'GET', url: '/api/profile' }); // 401: no session
      await t.request({ method: 'GET', url: '/api/pdf/document-answer/essay_doc' }); // templated
      const email = 'metrics@example.org';
      const signup = await t.request({
        method: 'POST',
        url: API_ROUTES.signup,
        body: { username: email, password: 'Correct-Horse-42!' },
      });
      expect(signup.statusCode).toBe(200);
      await t.waitForMail(email); // the send-email job ran in this process

      let text = '';
      for (let i = 0; i < 100; i++) {
        const res = await scrape();
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
        text = res.body;
        if (
          /admissions_job_duration_seconds_count\{queue="send-email",outcome="completed"\} 1/.test(
            text,
          )
        )
          break;
        await delay(50);
      }
      expect(text).toMatch(
        /admissions_http_request_duration_seconds_count\{route="\/health",method="GET",status_class="2xx"\} 1/,
      );
      expect(text).toMatch(
        /admissions_http_request_duration_seconds_count\{route="\/api\/profile",method="GET",status_class="4xx"\} 1/,
      );
      expect(text).toContain('route="/api/pdf/document-answer/:key"');
      expect(text).not.toContain('essay_doc');
      expect(text).toMatch(
        /admissions_job_duration_seconds_count\{queue="send-email",outcome="completed"\} 1/,
      );
      expect(text).toMatch(/admissions_job_queue_depth\{queue="send-email",state="waiting"\} 0/);
      expect(text).toMatch(
        /admissions_job_queue_depth\{queue="convert-document",state="active"\} 0/,
      );
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).toContain('nodejs_heap_size_used_bytes');
      // The scrapes themselves are not counted, nor listed for applicants.
      expect(text).not.toContain('route="/metrics"');
      await t.runtime.app.ready();
      const doc = t.runtime.app.swagger() as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths)).not.toContain('/metrics');
    });

    it('counts a waiting job in the queue depth', async () => {
      await t.runtime.queue.offWork('render-application-pdf');
      await t.runtime.queue.send('render-application-pdf', { probe: true });
      const res = await scrape();
      expect(res.body).toMatch(
        /admissions_job_queue_depth\{queue="render-application-pdf",state="waiting"\} 1/,
      );
    });
  });
});

describe('load shedding', () => {
  const busy = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.json()).toEqual({ message: MESSAGES.unavailable, code: 'OVERLOADED' });
    // Shed responses still carry the security headers and no-store.
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  };

  it('answers 503 with Retry-After while the event loop lags, /health included, then recovers', async () => {
    const t = await createTestRuntime('pglite', {
      MAX_EVENT_LOOP_DELAY_MS: '5',
      BUSY_RETRY_AFTER_S: '7',
      METRICS_ENABLED: 'true',
    });
    try {
      expect((await t.request({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      // Block the loop for 2.5 s: the next once-a-second sample sees a mean delay far above 5 ms.
      const until = Date.now() + 2500;
      while (Date.now() < until) {
        // busy
      }
      await delay(50);
      busy(await t.request({ method: 'GET', url: '/health' }));
      busy(await t.request({ method: 'GET', url: '/api/partner' }));
      // The metrics stay readable, so the overload can be seen.
      expect((await t.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
      // The next samples see an idle loop again.
      let status = 0;
      for (let i = 0; i < 40 && status !== 200; i++) {
        await delay(100);
        status = (await t.request({ method: 'GET', url: '/health' })).statusCode;
      }
      expect(status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('answers 503 while the heap is over MAX_HEAP_USED_MB', async () => {
    const t = await createTestRuntime('pglite', { MAX_HEAP_USED_MB: '1', BUSY_RETRY_AFTER_S: '7' });
    try {
      await delay(1200); // the first sample
      busy(await t.request({ method: 'GET', url: '/api/partner' }));
      expect(t.logs.join('')).toContain('shedding load');
    } finally {
      await t.close();
    }
  });
});

async function redisAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(6379, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const hasRedis = await redisAvailable();

describe.skipIf(!hasRedis)('rate limits in Redis (needs redis-server on 127.0.0.1:6379)', () => {
  it('two API instances count one client against one limit', async () => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', GLOBAL_RATE_LIMIT: '3' };
    const a = await createTestRuntime('pglite', env);
    const b = await createTestRuntime('pglite', env);
    try {
      // A fresh address per run, so earlier runs' counters (one minute) do not matter.
      const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
      const call = (t: TestRuntime) =>
        t.runtime.app.inject({ method: 'GET', url: API_ROUTES.partner, remoteAddress: ip });
      expect((await call(a)).statusCode).toBe(200);
      expect((await call(b)).statusCode).toBe(200);
      expect((await call(a)).statusCode).toBe(200);
      const limited = await call(b);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ message: MESSAGES.rateLimited });
      // Another address still has its own allowance.
      const other = await b.runtime.app.inject({
        method: 'GET',
        url: API_ROUTES.partner,
        remoteAddress: '10.255.255.254',
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
if (!hasRedis) {
  console.warn('Skipping the Redis rate-limit test: no Redis answers PING on 127.0.0.1:6379.');
}

function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
}

describe.skipIf(!availableDrivers().includes('postgres'))(
  'metrics of a separate worker process (PostgreSQL)',
  () => {
    it('serves its job durations on PORT and stops on SIGTERM with exit code 0', async () => {
      const t = await createTestRuntime('postgres', { RUN_WORKER_IN_PROCESS: 'false' });
      const port = await freePort();
      let output = '';
      const worker = spawn(process.execPath, cliNodeArgs(['worker']), {
        cwd: apiDir,
        env: {
          ...process.env,
          DATABASE_URL: t.config.databaseUrl!,
          DATA_DIR: t.dataDir, // the same generated secret key and outbox as the API
          METRICS_ENABLED: 'true',
          PORT: String(port),
          OFFICE_POOL_SIZE: '1',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      worker.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exit = new Promise<number | null>((resolve) => worker.once('exit', resolve));
      try {
        const scrape = () =>
          fetch(`http://127.0.0.1:${port}/metrics`)
            .then((r) => (r.status === 200 ? r.text() : ''))
            .catch(() => '');
        for (let i = 0; i < 600 && !(await scrape()); i++) await delay(100);
        const email = 'worker-metrics@example.org';
        const signup = await t.request({
          method: 'POST',
          url: API_ROUTES.signup,
          body: { username: email, password: 'Correct-Horse-42!' },
        });
        expect(signup.statusCode).toBe(200);
        await t.waitForMail(email);
        let text = '';
        for (let i = 0; i < 100; i++) {
          text = await scrape();
          if (/queue="send-email",outcome="completed"\} 1/.test(text)) break;
          await delay(50);
        }
        expect(text, output).toMatch(
          /admissions_job_duration_seconds_count\{queue="send-email",outcome="completed"\} 1/,
        );
        expect(text).toContain('admissions_job_queue_depth{queue="send-email",state="waiting"} 0');
        worker.kill('SIGTERM');
        expect(await exit, output).toBe(0);
      } finally {
        if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
        await t.close();
      }
    }, 120_000);
  },
);

describe('graceful shutdown of the server process', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-shutdown-'));
  let server: ChildProcess;
  let port = 0;
  let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  let output = '';

  beforeAll(async () => {
    port = await freePort();
    server = spawn(process.execPath, nodeArgsFor(serviceScript('compiled', 'server')), {
      cwd: apiDir,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        // debug: the server logs each request as it arrives (the test waits for both).
        LOG_LEVEL: 'debug',
        SHUTDOWN_TIMEOUT_MS: '6000',
        // The boot-time PDF warm-up render can stall the loop once; this test is not about that.
        MAX_EVENT_LOOP_DELAY_MS: '0',
        OFFICE_POOL_SIZE: '1',
        WEB_DIST: path.join(dataDir, 'no-web-build'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    exit = new Promise((resolve) =>
      server.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    for (let i = 0; i < 600; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) return;
      await delay(100);
    }
    throw new Error(`the server did not start:\n${output}`);
  }, 120_000);
  afterAll(() => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A request whose body arrives slowly: headers now, the rest when `finish` is called. */
  function slowSignup(email: string) {
    const body = JSON.stringify({ username: email, password: 'Correct-Horse-42!' });
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: API_ROUTES.signup,
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 10));
    return { response, finish: () => req.end(body.slice(10)), agent };
  }

  it('on SIGTERM stops accepting, finishes the request in flight, cuts a stuck one at the deadline and exits 0', async () => {
    const slow = slowSignup('slow@example.org');
    const stuck = slowSignup('stuck@example.org');
    const stuckOutcome = stuck.response.then(
      (r) => `answered ${r.status}`,
      (e: Error) => `cut: ${e.message}`,
    );
    // Both requests have been routed (logged at debug as each arrives, before its body).
    for (let i = 0; i < 200 && (output.match(/"url":"\/public\/signup"/g) ?? []).length < 2; i++) {
      await delay(50);
    }
    expect((output.match(/"url":"\/public\/signup"/g) ?? []).length).toBe(2);
    const signalledAt = Date.now();
    server.kill('SIGTERM');
    // No new connections once shutdown has begun (while the slow request is still held open);
    // a loaded machine may take a moment to deliver the signal and begin.
    let refused = false;
    for (let i = 0; i < 30 && !refused; i++) {
      await delay(100);
      refused = await fetch(`http://127.0.0.1:${port}/health`).then(
        () => false,
        () => true,
      );
    }
    expect(refused).toBe(true);
    slow.finish();
    const answered = await slow.response;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toHaveProperty('message', MESSAGES.signupSent);
    slow.agent.destroy();

    const exited = await exit;
    expect(exited.code, output).toBe(0);
    // SHUTDOWN_TIMEOUT_MS is 6 s: the stuck request is cut at its deadline (3 s, the rest is kept
    // for closing the pools and the database and writing the last log lines), and the process
    // has exited by the end of the budget.
    expect(exited.at - signalledAt).toBeLessThan(6500);
    expect(await stuckOutcome).toMatch(/^cut/);
    stuck.agent.destroy();
    expect(output).toContain('shutting down');
    expect(output).toContain('closing their connections');
    expect(output).toContain('"msg":"stopped"');
  }, 60_000);
});
