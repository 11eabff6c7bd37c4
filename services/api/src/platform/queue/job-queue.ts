import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/connect';

export const QUEUES = {
  sendEmail: 'send-email',
  convertDocument: 'convert-document',
  renderApplicationPdf: 'render-application-pdf',
  housekeeping: 'housekeeping',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

const QUEUE_SETUP_LOCK_ID = 7_201_312;

export type JobQueue = PgBoss;

/**
 * pg-boss on whichever database the app uses. On PGlite it runs through the same single
 * connection as the app (docs/measurements.md: exec for parameterless scripts, query otherwise).
 */
export interface JobQueueOptions {
  /** Told how long each job handler of this process ran and how it ended (the metrics). */
  observeJob?: (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;
  /** CONVERSION_TIMEOUT_MS: the conversion queue's expiry is derived from it (default 60 s). */
  conversionTimeoutMs?: number;
}

/**
 * How long a conversion job may stay active before pg-boss takes it back (and retries it): the
 * job of a worker that died (kill -9, OOM, lost host) is otherwise held for that long. Two
 * time-outs (a job may wait for a busy LibreOffice of the pool, then convert) plus 10 s for
 * storage and the database; a live worker never gets near it, its own time-out fires first.
 */
export function conversionExpirySeconds(conversionTimeoutMs: number): number {
  return Math.ceil((2 * conversionTimeoutMs) / 1000) + 10;
}

/**
 * pg-boss notices expired jobs only in its maintenance pass (every 120 s by default), so that
 * pass runs at a quarter of the shortest expiry, between 5 and 30 s: a dead worker's job is
 * back in the queue within expiry + this. One process per interval does it (pg-boss takes a
 * lock), so more replicas add no work.
 */
export function maintenanceIntervalSeconds(conversionTimeoutMs: number): number {
  return Math.min(30, Math.max(5, Math.round(conversionExpirySeconds(conversionTimeoutMs) / 4)));
}

/** Wraps every handler given to boss.work, so each worker is measured without knowing it. */
function instrumentWork(boss: PgBoss, observe: NonNullable<JobQueueOptions['observeJob']>): void {
  const work = boss.work.bind(boss) as (name: string, ...rest: unknown[]) => Promise<string>;
  (boss as { work: unknown }).work = (name: string, ...rest: unknown[]) => {
    const handler = rest.pop() as (jobs: unknown[]) => Promise<unknown>;
    const measured = async (jobs: unknown[]) => {
      const started = performance.now();
      try {
        const result = await handler(jobs);
        observe(name, 'completed', (performance.now() - started) / 1000);
        return result;
      } catch (error) {
        observe(name, 'failed', (performance.now() - started) / 1000);
        throw error;
      }
    };
    return work(name, ...rest, measured);
  };
}

export async function startJobQueue(
  database: Database,
  logger: Logger,
  options: JobQueueOptions = {},
): Promise<JobQueue> {
  const conversionTimeoutMs = options.conversionTimeoutMs ?? 60_000;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // Each queue sets its own retention; the default keeps finished jobs only briefly because
    // payloads may hold personal data.
    deleteAfterSeconds: 60 * 60,
    monitorStateIntervalSeconds: 60,
    maintenanceIntervalSeconds: maintenanceIntervalSeconds(conversionTimeoutMs),
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  if (options.observeJob) instrumentWork(boss, options.observeJob);
  await database.withAdvisoryLock(QUEUE_SETUP_LOCK_ID, async () => {
    await boss.start();
    await boss.createQueue(QUEUES.sendEmail, {
      name: QUEUES.sendEmail,
      retryLimit: 8,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 120,
    });
    // Two retries, for infrastructure failures only (a bad document completes as FAILED), or
    // when the job's worker died and the expiry gave it back. createQueue leaves an existing
    // queue as it was, so updateQueue applies a changed CONVERSION_TIMEOUT_MS (or the old
    // 15-minute expiry of an existing database) to the jobs sent from now on.
    const conversionQueue = {
      name: QUEUES.convertDocument,
      retryLimit: 2,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: conversionExpirySeconds(conversionTimeoutMs),
    };
    await boss.createQueue(QUEUES.convertDocument, conversionQueue);
    await boss.updateQueue(QUEUES.convertDocument, conversionQueue);
    // Two retries (storage or renderer trouble); the last failure is recorded as FAILED.
    await boss.createQueue(QUEUES.renderApplicationPdf, {
      name: QUEUES.renderApplicationPdf,
      retryLimit: 2,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 5 * 60,
    });
    // Scheduled (auth/housekeeping.ts); a missed tick is made up by the next one, so no retries.
    await boss.createQueue(QUEUES.housekeeping, {
      name: QUEUES.housekeeping,
      retryLimit: 0,
      expireInSeconds: 5 * 60,
    });
  });
  return boss;
}
