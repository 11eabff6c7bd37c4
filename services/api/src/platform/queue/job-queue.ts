import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/connect';

/**
 * A queue a module owns: its name and pg-boss options (retries, expiry, retention). Each module
 * exports its own; boot/ hands the list to startJobQueue, which creates them all at start.
 */
export interface QueueDefinition {
  name: string;
  options: Omit<PgBoss.Queue, 'name'>;
}

const QUEUE_SETUP_LOCK_ID = 7_201_312;

export type JobQueue = PgBoss;

/**
 * pg-boss on whichever database the app uses. On PGlite it runs through the same single
 * connection as the app (exec for parameterless scripts, query otherwise).
 */
export interface JobQueueOptions {
  /** The queues this process sends to or works on (every module's, from boot/). */
  queues: QueueDefinition[];
  /** Told how long each job handler of this process ran and how it ended (the metrics). */
  observeJob?: JobObserver;
  /**
   * Workers begin to poll when this settles (the server: shortly after it listens, never once a
   * stop began). Each worker's first fetch is a query planned afresh, 10–30 ms of PGlite's one
   * engine; before listening they held up a start by ~0.1 s, and a job waits for a poll anyway.
   */
  workAfter?: PromiseLike<unknown>;
}

export type JobObserver = (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;

/**
 * pg-boss notices expired jobs only in its maintenance pass (every 120 s by default), so that
 * pass runs at a quarter of the shortest expiry among the queues, between 5 and 30 s: a dead
 * worker's job is back in its queue within expiry + this. One process per interval does it
 * (pg-boss takes a lock), so more replicas add no work.
 */
export function maintenanceIntervalSeconds(queues: QueueDefinition[]): number {
  const shortest = Math.min(...queues.map((q) => q.options.expireInSeconds ?? 15 * 60));
  return Math.min(30, Math.max(5, Math.round(shortest / 4)));
}

const observers = new WeakMap<JobQueue, JobObserver>();
const workGates = new WeakMap<JobQueue, PromiseLike<unknown>>();
/** This process's workers, by queue name: sendJob wakes them. */
const localWorkers = new WeakMap<JobQueue, Map<string, Set<string>>>();

/**
 * Queues a job (pg-boss's send) and wakes this process's own workers of that queue, which would
 * otherwise find it at their next poll: on the embedded default one process sends and works every
 * job, and a sign-up code's e-mail, a conversion or a PDF then starts at once. A job for later
 * (`startAfter`) waits for its time as before; other processes' workers poll as before.
 */
export async function sendJob(
  queue: JobQueue,
  name: string,
  data: object,
  options: PgBoss.SendOptions = {},
): Promise<string | null> {
  const id = await queue.send(name, data, options);
  if (options.startAfter === undefined) {
    for (const workerId of localWorkers.get(queue)?.get(name) ?? []) queue.notifyWorker(workerId);
  }
  return id;
}

/**
 * Works a queue: pg-boss's work() with the handler measured for the metrics when this process
 * has them (every module's worker goes through here, so none needs to know). With a `workAfter`
 * gate (startJobQueue) the worker is registered, and polls for the first time, once it opens.
 */
export function workJobs<T>(
  queue: JobQueue,
  name: string,
  options: PgBoss.WorkOptions & { includeMetadata: true },
  handler: PgBoss.WorkWithMetadataHandler<T>,
): Promise<void>;
export function workJobs<T>(
  queue: JobQueue,
  name: string,
  options: PgBoss.WorkOptions,
  handler: PgBoss.WorkHandler<T>,
): Promise<void>;
export async function workJobs(
  queue: JobQueue,
  name: string,
  options: PgBoss.WorkOptions,
  handler: (jobs: never[]) => Promise<unknown>,
): Promise<void> {
  const observe = observers.get(queue);
  let workerId: string | undefined;
  const measured = async (jobs: never[]) => {
    const started = performance.now();
    try {
      const result = await handler(jobs);
      observe?.(name, 'completed', (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      observe?.(name, 'failed', (performance.now() - started) / 1000);
      throw error;
    } finally {
      // pg-boss sleeps out its polling interval after every batch, busy queue or not: a worker
      // taking one PDF job at a time drained at most two a second however many were waiting.
      // A batch that found work means there may be more, so look again at once.
      if (workerId) queue.notifyWorker(workerId);
    }
  };
  // The overloads above keep callers typed; pg-boss passes whatever its options asked for.
  const work = async () => {
    workerId = await (
      queue.work.bind(queue) as unknown as (
        name: string,
        options: PgBoss.WorkOptions,
        handler: (jobs: never[]) => Promise<unknown>,
      ) => Promise<string>
    )(name, options, measured);
    let byName = localWorkers.get(queue);
    if (!byName) localWorkers.set(queue, (byName = new Map()));
    let ids = byName.get(name);
    if (!ids) byName.set(name, (ids = new Set()));
    ids.add(workerId);
  };
  const gate = workGates.get(queue);
  if (!gate) {
    await work();
    return;
  }
  void Promise.resolve(gate)
    .then(work)
    .catch((error: unknown) => queue.emit('error', error));
}

export async function startJobQueue(
  database: Database,
  logger: Logger,
  options: JobQueueOptions,
): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // Each queue sets its own retention; the default keeps finished jobs only briefly because
    // payloads may hold personal data.
    deleteAfterSeconds: 60 * 60,
    monitorStateIntervalSeconds: 60,
    maintenanceIntervalSeconds: maintenanceIntervalSeconds(options.queues),
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  if (options.observeJob) observers.set(boss, options.observeJob);
  if (options.workAfter) workGates.set(boss, options.workAfter);

  await database.withAdvisoryLock(QUEUE_SETUP_LOCK_ID, async () => {
    await boss.start();
    await applyQueueDefinitions(boss, options.queues);
  });
  return boss;
}

/** The queue settings a definition fixes, as pg-boss stores them (getQueues' names). */
const QUEUE_SETTINGS = [
  'retryLimit',
  'retryDelay',
  'retryBackoff',
  'expireInSeconds',
  'retentionMinutes',
  'deadLetter',
] as const;

/**
 * Creates the missing queues and brings the others to their definition: createQueue leaves an
 * existing queue as it was, so a changed option (a new CONVERSION_TIMEOUT_MS, an old database's
 * expiry) needs updateQueue to reach the jobs sent from then on. One read decides: a queue that
 * already matches gets no statement (on PGlite each create_queue costs 10–50 ms of the one engine,
 * ~0.1 s of every start for nothing).
 */
async function applyQueueDefinitions(boss: PgBoss, queues: QueueDefinition[]): Promise<void> {
  const stored = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
  for (const { name, options } of queues) {
    const current = stored.get(name);
    if (!current) {
      await boss.createQueue(name, { name, ...options });
    } else if (differsFromStored(options, current)) {
      await boss.updateQueue(name, { name, ...options });
    }
  }
}

/** What updateQueue would change: it writes the settings a definition gives and keeps the rest. */
function differsFromStored(
  wanted: QueueDefinition['options'],
  stored: PgBoss.QueueResult,
): boolean {
  if ((wanted.policy ?? 'standard') !== stored.policy) return true;
  return QUEUE_SETTINGS.some(
    (setting) => wanted[setting] !== undefined && wanted[setting] !== stored[setting],
  );
}
