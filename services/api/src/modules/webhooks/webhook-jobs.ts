// Delivering webhooks (docs/webhooks.md): one pg-boss job per attempt. A job claims its attempt
// (webhook-store.ts), signs the body as Standard Webhooks says (the `standardwebhooks` package),
// POSTs it without following redirects, within a time-out, to an allowed address only, and writes what it got. A failed
// attempt schedules the next one by this module's back-off (a job for later); after the last,
// the delivery is failed. pg-boss's own retries only cover a job that threw (the database away)
// or whose worker died; what such a job leaves pending, the housekeeping sweep queues again.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../../platform/config';
import type { RootDb } from '../../platform/db/connect';
import type { Clock } from '../../platform/lib/clock';
import { unseal } from '../../platform/lib/crypto';
import {
  sendJob,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../../platform/queue/job-queue';
import {
  claimDelivery,
  deleteFinishedDeliveries,
  findSubscription,
  listLostDeliveries,
  recordAttempt,
  type AttemptResult,
  type WebhookDeliveryRef,
} from './webhook-store';
import { WebhookTargetError, checkWebhookTarget, createWebhookLookup } from './webhook-targets';

/**
 * The waits before the 2nd … 15th attempt, in units of WEBHOOK_RETRY_BASE_MS (30 s by default):
 * doubling from 30 s to 128 min, then 4 h five times. With the default, the 15th and last attempt
 * is made 24 h 15 min 30 s after the first (plus each attempt's own time).
 */
export const RETRY_WAIT_UNITS = [
  1, 2, 4, 8, 16, 32, 64, 128, 256, 480, 480, 480, 480, 480,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = RETRY_WAIT_UNITS.length + 1;

/** How long to wait after the attempt numbered `attemptsMade`; null after the last. */
export function findRetryDelayMs(attemptsMade: number, baseMs: number): number | null {
  const units = RETRY_WAIT_UNITS[attemptsMade - 1];
  return units === undefined ? null : units * baseMs;
}

/** An attempt running this long (the longest time-out allowed, and then some) was lost. */
const ATTEMPT_LEASE_MS = 2 * 60_000;
/** The sweep queues a pending delivery again this long after its attempt was due. */
export const LOST_DELIVERY_AFTER_MS = 10 * 60_000;
/** Deliveries queued again per sweep at most. */
const LOST_DELIVERY_BATCH = 500;
/** Attempts one worker process makes at once: a receiver that never answers holds one each. */
const WEBHOOK_WORKER_LOOPS = 4;
/** What a redirect's Location may show in the log. */
const LOCATION_SHOWN = 200;

export const WEBHOOK_SUBSCRIPTION_REMOVED = 'The subscription was removed.';

export const WEBHOOK_QUEUE: QueueDefinition = {
  name: 'deliver-webhook',
  // Expiry above the longest time-out (WEBHOOK_TIMEOUT_MS ≤ 60 s) with the database work.
  options: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
};

export interface WebhookJob {
  id: string;
  subscriptionId: string;
  /** Attempts made before this one: a job whose attempt was taken already does nothing. */
  attempt: number;
}

/** Queues an attempt of each delivery (now, or `delayMs` from now). */
export async function enqueueWebhookDeliveries(
  queue: JobQueue,
  deliveries: readonly WebhookDeliveryRef[],
  delayMs?: number,
): Promise<void> {
  for (const delivery of deliveries) {
    const job: WebhookJob = {
      id: delivery.id,
      subscriptionId: delivery.subscriptionId,
      attempt: delivery.attempts,
    };
    // Seconds, fractions allowed: pg-boss adds them to the database's now() as an interval.
    await sendJob(queue, WEBHOOK_QUEUE.name, job, delayMs ? { startAfter: delayMs / 1000 } : {});
  }
}

/**
 * What the application and checklist modules call after their transaction committed with the
 * deliveries recordApplicationEvent returned. Never throws: the change is made, and a delivery
 * that could not be queued now is queued by the housekeeping sweep.
 */
export type QueueWebhookDeliveries = (deliveries: readonly WebhookDeliveryRef[]) => Promise<void>;

export function createWebhookQueuer(queue: JobQueue, logger: Logger): QueueWebhookDeliveries {
  return async (deliveries) => {
    if (deliveries.length === 0) return;
    try {
      await enqueueWebhookDeliveries(queue, deliveries);
    } catch (error) {
      logger.error(
        { err: error, deliveries: deliveries.length },
        'webhook deliveries not queued; the housekeeping sweep will',
      );
    }
  };
}

export interface WebhookDeliveryDeps {
  db: RootDb;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  encryptionKey: Buffer;
  config: WebhookConfig;
}

interface PostOutcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * One POST: 2xx is delivered; a redirect, another status, a time-out, a refused address or no
 * connection is not. node:http rather than fetch: its connection takes our resolver (fetch's
 * cannot without a dispatcher of undici's own), and it follows no redirect.
 */
export function postWebhookEvent(
  url: URL,
  body: string,
  headers: Record<string, string>,
  config: WebhookConfig,
): Promise<PostOutcome> {
  const { timeoutMs } = config;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: createWebhookLookup(config),
        // A connection of its own for each attempt, resolved again: none kept from the last one.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not read: only its status counts.
        response.destroy();
        if (status >= 200 && status < 300) {
          settle({ delivered: true, statusCode: status, error: null });
        } else if (status >= 300 && status < 400) {
          const location = response.headers.location;
          const target = location ? ` to ${location.slice(0, LOCATION_SHOWN)}` : '';
          settle({
            delivered: false,
            statusCode: status,
            error: `The receiver answered ${status}, a redirect${target}: redirects are not followed.`,
          });
        } else {
          settle({
            delivered: false,
            statusCode: status,
            error: `The receiver answered ${status}.`,
          });
        }
      },
    );
    const timer = setTimeout(() => {
      settle({ delivered: false, statusCode: null, error: `No answer within ${timeoutMs} ms.` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: Error & { code?: string }) => {
      if (error instanceof WebhookTargetError) {
        settle({ delivered: false, statusCode: null, error: `Not sent: ${error.message}` });
        return;
      }
      settle({
        delivered: false,
        statusCode: null,
        error: `Could not connect (${error.code ?? error.message}).`,
      });
    });
    request.end(body);
  });
}

/** Makes the attempt a job stands for, if it is still to be made. */
export async function attemptWebhookDelivery(
  deps: WebhookDeliveryDeps,
  job: WebhookJob,
): Promise<void> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const claimed = await claimDelivery(
    db,
    { id: job.id, subscriptionId: job.subscriptionId, attempts: job.attempt },
    now,
    new Date(now.getTime() + ATTEMPT_LEASE_MS),
  );
  if (!claimed) return;
  const log = deps.logger.child({
    webhook: claimed.subscriptionId,
    event: claimed.id,
    attempt: claimed.attempts,
  });
  const finish = (result: AttemptResult) => recordAttempt(db, claimed, result);
  const fail = (error: string) =>
    finish({ status: 'failed', statusCode: null, error, nextAttemptAt: null, deliveredAt: null });

  const subscription = await findSubscription(db, claimed.subscriptionId);
  if (!subscription || subscription.disabledAt) {
    await fail(WEBHOOK_SUBSCRIPTION_REMOVED);
    return;
  }
  let url: URL;
  try {
    url = checkWebhookTarget(subscription.url, config);
  } catch (error) {
    if (!(error instanceof WebhookTargetError)) throw error;
    // The configuration changed under the subscription (a development database in production):
    // no attempt will ever be allowed, so none is scheduled.
    log.warn({ reason: error.message }, 'webhook target refused');
    await fail(`Not sent: ${error.message}`);
    return;
  }

  const body = JSON.stringify(claimed.payload);
  const secret = unseal(deps.encryptionKey, subscription.secretSealed);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'admissions-webhooks',
    'webhook-id': claimed.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(claimed.id, now, body),
  };
  const outcome = await postWebhookEvent(url, body, headers, config);
  const finishedAt = clock.now();
  if (outcome.delivered) {
    await finish({
      status: 'delivered',
      statusCode: outcome.statusCode,
      error: null,
      nextAttemptAt: null,
      deliveredAt: finishedAt,
    });
    log.info({ status: outcome.statusCode }, 'webhook delivered');
    return;
  }
  const failed = { statusCode: outcome.statusCode, error: outcome.error, deliveredAt: null };
  const delayMs = findRetryDelayMs(claimed.attempts, config.retryBaseMs);
  if (delayMs === null) {
    await finish({ ...failed, status: 'failed', nextAttemptAt: null });
    log.warn({ status: outcome.statusCode, reason: outcome.error }, 'webhook failed for good');
    return;
  }
  const recorded = await finish({
    ...failed,
    status: 'pending',
    nextAttemptAt: new Date(finishedAt.getTime() + delayMs),
  });
  log.info(
    { status: outcome.statusCode, reason: outcome.error, delayMs },
    'webhook attempt failed',
  );
  if (recorded) {
    await enqueueWebhookDeliveries(
      deps.queue,
      [{ id: claimed.id, subscriptionId: claimed.subscriptionId, attempts: claimed.attempts }],
      delayMs,
    );
  }
}

/**
 * The housekeeping sweep: pending deliveries whose attempt was due more than
 * LOST_DELIVERY_AFTER_MS ago (never queued because the process died after the commit, or whose
 * job died with its worker) are queued again. A second job for an attempt already taken does
 * nothing. Returns how many were queued.
 */
export async function requeueLostWebhookDeliveries(
  deps: Pick<WebhookDeliveryDeps, 'db' | 'queue'>,
  now: Date,
): Promise<number> {
  const lost = await listLostDeliveries(
    deps.db,
    new Date(now.getTime() - LOST_DELIVERY_AFTER_MS),
    LOST_DELIVERY_BATCH,
  );
  await enqueueWebhookDeliveries(deps.queue, lost);
  return lost.length;
}

/** The delivery log keeps a delivered or failed delivery this long after its event. */
export const WEBHOOK_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The housekeeping sweep of the delivery log; returns how many deliveries it deleted. */
export async function deleteExpiredWebhookDeliveries(db: RootDb, now: Date): Promise<number> {
  return deleteFinishedDeliveries(db, new Date(now.getTime() - WEBHOOK_LOG_RETENTION_MS));
}

export async function startWebhookWorker(deps: WebhookDeliveryDeps): Promise<() => Promise<void>> {
  for (let i = 0; i < WEBHOOK_WORKER_LOOPS; i++) {
    await workJobs<WebhookJob>(
      deps.queue,
      WEBHOOK_QUEUE.name,
      { batchSize: 1, pollingIntervalSeconds: 1 },
      async ([job]) => {
        if (job) await attemptWebhookDelivery(deps, job.data);
      },
    );
  }
  return async () => {
    await deps.queue.offWork(WEBHOOK_QUEUE.name);
  };
}
