// The route fuzz against the compiled server (dist/server.js, what `npm start` and the image run)
// over real HTTP, on one driver (PostgreSQL when present): every route of its OpenAPI document
// gets generated paths, queries and bodies, and none may answer 5xx or an error without a JSON
// message. The in-process fuzz (security-fuzz.test.ts) goes deeper (a signed-in applicant, the
// data left unchanged); this one checks that what ships behaves as the sources do.
// FUZZ_RUNS_COMPILED sets the inputs per route (short by default); FUZZ_SEED replays a run.
import http from 'node:http';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import {
  bodyArbitrary,
  fillPath,
  listRoutes,
  pathArbitrary,
  queryArbitrary,
  toQueryString,
  type OpenApiDocument,
} from './support/fuzz';
import {
  buildCompiledService,
  buildEmbeddedEnv,
  createScratchDatabase,
  findFreePort,
  launchProcess,
  serviceScript,
  waitUntilReady,
  type ManagedProcess,
} from './support/process-stack';
import { primaryDriver } from './support/test-runtime';

const RUNS = Number(process.env.FUZZ_RUNS_COMPILED ?? 8);
/** The service's body limit (boot/app.ts); routes taking letters allow more, none less. */
const SMALLEST_BODY_LIMIT = 1_048_576;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

describe.each(primaryDriver())('security fuzz of the compiled server on %s', (driver) => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'fuzz-compiled-'));
  let server: ManagedProcess | undefined;
  let drop: (() => Promise<void>) | undefined;
  let base = '';

  beforeAll(async () => {
    buildCompiledService();
    const port = await findFreePort();
    const env = buildEmbeddedEnv({
      port,
      dataDir: path.join(scratch, 'data'),
      scratchDir: scratch,
      env: {
        HOST: '127.0.0.1',
        ENABLE_DOCS: 'true',
        LOG_LEVEL: 'warn',
        PUBLIC_RATE_LIMIT: '1000000',
        GLOBAL_RATE_LIMIT: '10000000',
        LOOKUP_RATE_LIMIT: '1000000',
        ACCOUNT_RATE_LIMIT: '10000000',
        MAX_EVENT_LOOP_DELAY_MS: '0',
      },
    });
    if (driver === 'postgres') {
      const database = await createScratchDatabase(inject('postgresUrl')!, 'fuzzdist');
      drop = database.drop;
      env.DATABASE_URL = database.url;
    }
    const logDir = path.join(scratch, 'logs');
    mkdirSync(logDir);
    server = launchProcess('api', [serviceScript('compiled', 'server')], env, logDir);
    base = `http://127.0.0.1:${port}`;
    await waitUntilReady(server, async () => (await fetch(`${base}/health`)).status === 200);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await drop?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(`sends ${RUNS} generated requests per route over HTTP: no 5xx, every error JSON with a message`, async () => {
    const doc = (await (await fetch(`${base}/docs/json`)).json()) as OpenApiDocument;
    const routes = listRoutes(doc);
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const route of routes) {
      const input = fc.record({
        path: pathArbitrary(route.pathParams, {}),
        query: queryArbitrary(route.query, {}),
        body: bodyArbitrary(route.body, {}),
      });
      const result = await fc.check(
        fc.asyncProperty(input, async ({ path: params, query, body }) => {
          const url = fillPath(route.path, params) + toQueryString(query);
          const headers: Record<string, string> = {};
          let payload: string | undefined;
          if (body.kind === 'json' && body.value !== undefined) {
            headers['content-type'] = 'application/json';
            payload = JSON.stringify(body.value);
          } else if (body.kind === 'raw') {
            headers['content-type'] = body.contentType;
            payload = body.payload;
          }
          let response: Response;
          try {
            response = await fetch(`${base}${url}`, {
              method: route.method,
              headers,
              ...(payload === undefined || route.method === 'GET' ? {} : { body: payload }),
              redirect: 'manual',
              signal: AbortSignal.timeout(30_000),
            });
          } catch (error) {
            // Node's parser refuses a request line past http.maxHeaderSize (16 KiB) with a JSON
            // 431 and closes the socket; a client still writing a 600 KB query string may read
            // the reset before that answer. Nothing a server can do about TCP; any other
            // failure stays one.
            if (url.length > http.maxHeaderSize) return true;
            // The same for a body over every route's limit (a 1.5 MB letter of multi-byte text):
            // Fastify answers 413 from the Content-Length and the connection closes while the
            // client still writes, which it reads as EPIPE or a reset. Accepted only when the
            // server still serves.
            const code = String((error as { cause?: { code?: unknown } }).cause?.code ?? '');
            if (
              payload !== undefined &&
              Buffer.byteLength(payload) > SMALLEST_BODY_LIMIT &&
              (code === 'EPIPE' || code === 'ECONNRESET') &&
              (await fetch(`${base}/health`)).status === 200
            ) {
              return true;
            }
            throw error;
          }
          const text = await response.text();
          const status = response.status;
          let problem: string | null = null;
          if (status >= 500) problem = `status ${status}: ${text.slice(0, 200)}`;
          else if (status >= 400) {
            let message: unknown;
            try {
              message = (JSON.parse(text) as { message?: unknown }).message;
            } catch {
              message = undefined;
            }
            if (typeof message !== 'string' || message === '') {
              problem = `status ${status} without a JSON message: ${text.slice(0, 200)}`;
            }
          }
          if (problem) {
            failures.push(`${route.method} ${url.slice(0, 300)}: ${problem}`);
            return false;
          }
          return true;
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (result.failed && failures.length === 0) {
        // fetch's own error says only "fetch failed": the socket's reason is in its cause.
        const error = result.errorInstance as (Error & { cause?: unknown }) | undefined;
        const cause = error?.cause === undefined ? '' : ` (${String(error.cause)})`;
        failures.push(
          `${route.method} ${route.path} ${JSON.stringify(result.counterexample)}: ${String(error)}${cause}`,
        );
      }
    }
    expect(failures, server?.tail()).toEqual([]);
  }, 1_800_000);
});
