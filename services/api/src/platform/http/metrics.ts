// Opt-in Prometheus metrics (METRICS_ENABLED): request latency, job duration, queue depth and
// the default process metrics, each app with its own registry so tests can build several.
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import { AppError, sendAppError } from '../lib/app-error';
import { registerAccessControl, registerRoute } from './access';
import type { Database } from '../db/connect';

export const METRICS_PATH = '/metrics';

export type JobOutcome = 'completed' | 'failed';

export interface Metrics {
  registry: Registry;
  /** Called by the queue wrapper around every job handler (in-process workers). */
  observeJob(queue: string, outcome: JobOutcome, seconds: number): void;
  /** Called once per response; `route` is the template, never the raw URL. */
  observeRequest(route: string, method: string, statusClass: string, seconds: number): void;
}

// Requests are mostly milliseconds; PDFs and uploads take seconds.
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Jobs range from an e-mail (ms) to a docx conversion or a batch PDF (tens of seconds).
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** Waiting (created or retry) and active jobs per queue, one grouped count at scrape time. */
async function readQueueDepths(
  database: Database,
): Promise<{ queue: string; state: string; count: number }[]> {
  const result = await database.executeSql(
    `SELECT name, CASE WHEN state::text = 'active' THEN 'active' ELSE 'waiting' END AS state,
            count(*)::int AS count
       FROM pgboss.job
      WHERE state::text IN ($1, $2, $3)
      GROUP BY 1, 2`,
    ['created', 'retry', 'active'],
  );
  return (result.rows as { name: string; state: string; count: number }[]).map((row) => ({
    queue: row.name,
    state: row.state,
    count: Number(row.count),
  }));
}

export async function createMetrics(
  database: Database,
  queues: readonly string[],
): Promise<Metrics> {
  // prom-client loads only with METRICS_ENABLED: a start without metrics does not pay for it.
  const { Gauge, Histogram, Registry, collectDefaultMetrics } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const jobDuration = new Histogram({
    name: 'admissions_job_duration_seconds',
    help: 'Time a job handler ran in this process, by queue and outcome.',
    labelNames: ['queue', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'admissions_job_queue_depth',
    help: 'Jobs waiting (created or retry) and active per queue, read from the database at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const queue of queues) {
        this.set({ queue, state: 'waiting' }, 0);
        this.set({ queue, state: 'active' }, 0);
      }
      for (const row of await readQueueDepths(database)) {
        this.set({ queue: row.queue, state: row.state }, row.count);
      }
    },
  });
  const httpDuration = new Histogram({
    name: 'admissions_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    observeJob(queue, outcome, seconds) {
      jobDuration.observe({ queue, outcome }, seconds);
    },
    observeRequest(route, method, statusClass, seconds) {
      httpDuration.observe({ route, method, status_class: statusClass }, seconds);
    },
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The request-duration histogram for every route, and GET /metrics itself (hidden from the
 * OpenAPI document, not rate limited, not shed under pressure so the overload stays visible).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, config: Config): void {
  // Callback style: a synchronous hook need not cost a promise and a microtask per request.
  app.addHook('onResponse', (request, reply, done) => {
    // The template (/api/pdf/document-answer/:key), never the raw URL: bounded label values.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== METRICS_PATH) {
      metrics.observeRequest(
        route,
        request.method,
        `${Math.floor(reply.statusCode / 100)}xx`,
        reply.elapsedTime / 1000,
      );
    }
    done();
  });

  // Public as far as the sessions go: the deployment locks it with METRICS_TOKEN (checked below)
  // or keeps it off the public network.
  registerRoute(
    app,
    { kind: 'public' },
    {
      method: 'GET',
      url: METRICS_PATH,
      config: { rateLimit: false, pressureHandler: () => undefined },
      schema: { hide: true },
      handler: async (request, reply) => {
        if (config.metricsToken !== null) {
          const header = request.headers.authorization ?? '';
          const given = header.startsWith('Bearer ') ? header.slice(7) : '';
          if (!sameToken(given, config.metricsToken)) {
            return sendAppError(
              reply,
              new AppError('UNAUTHORIZED', 'A valid metrics token is required.', {
                headers: { 'www-authenticate': 'Bearer' },
              }),
            );
          }
        }
        const body = await metrics.registry.metrics();
        return reply.type(metrics.registry.contentType).send(body);
      },
    },
  );
}

/**
 * A `npm run cli -- worker` process has no API, but its jobs are the ones worth timing: with
 * METRICS_ENABLED it serves only GET /metrics on PORT/HOST. Returns the function that stops it.
 */
export async function serveWorkerMetrics(
  metrics: Metrics,
  config: Config,
  logger: Logger,
): Promise<() => Promise<void>> {
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, disableRequestLogging: true });
  registerAccessControl(app);
  registerMetrics(app, metrics, config);
  await app.listen({ port: config.port, host: config.host });
  return () => app.close();
}
