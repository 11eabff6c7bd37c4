// The job queue at start: every module's queue exists with its definition's settings, a restart
// with unchanged definitions writes nothing, and a server's workers take jobs only once it listens.
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { wrapPglite, type Database } from '../src/platform/db/connect';
import { PGLITE_EXTENSIONS } from '../src/platform/db/pglite-extensions';
import {
  sendJob,
  startJobQueue,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../src/platform/queue/job-queue';

const silent = pino({ level: 'silent' });

const QUEUES: QueueDefinition[] = [
  { name: 'setup-a', options: { retryLimit: 2, retryDelay: 2, expireInSeconds: 120 } },
  { name: 'setup-b', options: { retryLimit: 0, expireInSeconds: 60 } },
];

describe('job queue set-up', () => {
  let database: Database;
  let statements: { text: string; values: unknown[] }[];
  const started: JobQueue[] = [];

  beforeEach(async () => {
    // The test snapshot: migrated, with pg-boss installed (as every server start but the first).
    const client = new PGlite({
      loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]),
      extensions: PGLITE_EXTENSIONS,
    });
    const wrapped = wrapPglite(client);
    statements = [];
    database = {
      ...wrapped,
      executeSql(text, values) {
        statements.push({ text, values: values ?? [] });
        return wrapped.executeSql(text, values);
      },
    };
  });

  afterEach(async () => {
    for (const queue of started.splice(0)) await queue.stop({ graceful: false, wait: true });
    await database.close();
  });

  async function start(queues: QueueDefinition[], workAfter?: Promise<unknown>) {
    const queue = await startJobQueue(database, silent, {
      queues,
      ...(workAfter ? { workAfter } : {}),
    });
    started.push(queue);
    return queue;
  }

  async function stopAll() {
    for (const queue of started.splice(0)) await queue.stop({ graceful: false, wait: true });
  }

  async function storedQueue(name: string) {
    const { rows } = await database.executeSql(
      'SELECT retry_limit, retry_delay, expire_seconds, updated_on FROM pgboss.queue WHERE name = $1',
      [name],
    );
    return rows[0] as
      | { retry_limit: number; retry_delay: number; expire_seconds: number; updated_on: Date }
      | undefined;
  }

  // Statements that create or change one of these queues (pg-boss's start creates its own too).
  const queueWrites = () =>
    statements.filter(
      ({ text, values }) =>
        /create_queue|UPDATE\s+pgboss\.queue/i.test(text) &&
        QUEUES.some(({ name }) => values[0] === name),
    );

  it('creates missing queues with their settings, and a restart with the same ones writes nothing', async () => {
    await start(QUEUES);
    expect(await storedQueue('setup-a')).toMatchObject({
      retry_limit: 2,
      retry_delay: 2,
      expire_seconds: 120,
    });
    expect(await storedQueue('setup-b')).toMatchObject({ retry_limit: 0, expire_seconds: 60 });
    const before = await storedQueue('setup-a');
    await stopAll();

    statements = [];
    await start(QUEUES);
    expect(queueWrites()).toEqual([]);
    expect((await storedQueue('setup-a'))?.updated_on).toEqual(before?.updated_on);
  });

  it('applies a changed setting at the next start and leaves the settings a definition omits', async () => {
    await start(QUEUES);
    await stopAll();

    statements = [];
    await start([
      { name: 'setup-a', options: { retryLimit: 2, retryDelay: 2, expireInSeconds: 300 } },
      // No expiry given: the stored one stays, as pg-boss's updateQueue would keep it.
      { name: 'setup-b', options: { retryLimit: 0 } },
    ]);
    expect(queueWrites()).toHaveLength(1);
    expect(await storedQueue('setup-a')).toMatchObject({ expire_seconds: 300 });
    expect(await storedQueue('setup-b')).toMatchObject({ expire_seconds: 60 });
  });

  it('takes no job until the gate opens, then works the ones that waited', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const queue = await start(QUEUES, gate);
    const worked: string[] = [];
    await workJobs<{ n: string }>(
      queue,
      'setup-a',
      { pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        worked.push(job!.data.n);
      },
    );
    await queue.send('setup-a', { n: 'first' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(worked).toEqual([]);

    open();
    await expect.poll(() => worked, { timeout: 5000 }).toEqual(['first']);
  });

  it('takes a waiting backlog one job after another without sleeping out the polling interval', async () => {
    const queue = await start(QUEUES);
    for (let n = 0; n < 8; n++) await queue.send('setup-b', { n });
    const worked: number[] = [];
    const started = performance.now();
    // One job per fetch and a 5 s interval: pg-boss alone sleeps 5 s after each, 35 s for the
    // eight; a worker that looks again when a fetch found work takes them as fast as they run.
    await workJobs<{ n: number }>(
      queue,
      'setup-b',
      { pollingIntervalSeconds: 5, batchSize: 1 },
      async ([job]) => {
        worked.push(job!.data.n);
      },
    );
    await expect.poll(() => worked.length, { timeout: 15_000, interval: 50 }).toBe(8);
    // Two intervals' worth: the first fetch may run before work() hands back the worker's id.
    expect(performance.now() - started).toBeLessThan(11_000);
  });

  it('wakes its own idle worker when it sends a job, instead of leaving it to the next poll', async () => {
    const queue = await start(QUEUES);
    const worked: number[] = [];
    await workJobs<{ n: number }>(
      queue,
      'setup-b',
      { pollingIntervalSeconds: 30, batchSize: 1 },
      async ([job]) => {
        worked.push(job!.data.n);
      },
    );
    // The worker's first fetch found nothing; it now sleeps out its 30 s.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sent = performance.now();
    await sendJob(queue, 'setup-b', { n: 1 });
    await expect.poll(() => worked, { timeout: 40_000, interval: 50 }).toEqual([1]);
    expect(performance.now() - sent).toBeLessThan(10_000);
  }, 60_000);
});
