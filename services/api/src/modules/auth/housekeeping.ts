import { and, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/connect';
import { loginThrottle, passwordResets } from './schema';
import { deleteStaleAddressThrottles } from '../mail';
import type { Clock } from '../../platform/lib/clock';
import { workJobs, type JobQueue, type QueueDefinition } from '../../platform/queue/job-queue';
import { FAILURE_MEMORY_MS } from './auth-service';
import { deleteDeadSessions } from './sessions';

/**
 * Every ten minutes, cluster-wide (a pg-boss schedule: one job per tick whatever the number of
 * workers), rows that can never count again are deleted: sessions revoked, idle or past their
 * lifetime, login-failure counters that are both forgotten and unlocked, address allowances
 * (e-mails, code tries) that have refilled, and reset links expired or used. Left alone they grow
 * with every login of the season and keep who-logged-in-when longer than anyone needs it.
 */
/** Scheduled; a missed tick is made up by the next one, so no retries. */
export const HOUSEKEEPING_QUEUE: QueueDefinition = {
  name: 'housekeeping',
  options: { retryLimit: 0, expireInSeconds: 5 * 60 },
};

export const HOUSEKEEPING_CRON = '*/10 * * * *';

export async function deleteStaleLoginThrottles(db: Db, now: Date): Promise<number> {
  const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS);
  const deleted = await db
    .delete(loginThrottle)
    .where(
      and(
        lt(loginThrottle.lastFailureAt, forgetBefore),
        or(isNull(loginThrottle.lockedUntil), lte(loginThrottle.lockedUntil, now)),
      ),
    )
    .returning({ email: loginThrottle.email });
  return deleted.length;
}

/**
 * A retention rule another module owns (files in DATA_DIR, stored objects), run on the same
 * tick: given the tick's time, it removes what is past its retention and returns how many.
 */
export type HousekeepingSweep = (now: Date) => Promise<number>;

/**
 * A reset link past its hour, or used, can never work again; its row only says that this
 * account asked for a reset, and when.
 */
export async function deleteDeadPasswordResets(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .delete(passwordResets)
    .where(or(lte(passwordResets.expiresAt, now), isNotNull(passwordResets.usedAt)))
    .returning({ idHash: passwordResets.idHash });
  return deleted.length;
}

export async function startHousekeepingWorker(
  queue: JobQueue,
  deps: { db: Db; clock: Clock; logger: Logger; sweeps?: Record<string, HousekeepingSweep> },
): Promise<void> {
  await queue.schedule(HOUSEKEEPING_QUEUE.name, HOUSEKEEPING_CRON);
  await workJobs(queue, HOUSEKEEPING_QUEUE.name, { pollingIntervalSeconds: 5 }, async () => {
    const now = deps.clock.now();
    const sessions = await deleteDeadSessions(deps.db, now);
    const loginThrottles = await deleteStaleLoginThrottles(deps.db, now);
    const addressThrottles = await deleteStaleAddressThrottles(deps.db, now);
    const passwordResetRows = await deleteDeadPasswordResets(deps.db, now);
    deps.logger.info(
      { sessions, loginThrottles, addressThrottles, passwordResets: passwordResetRows },
      'housekeeping: dead rows deleted',
    );
    // One failing rule (a store that does not answer) must not keep the others from running.
    for (const [name, sweep] of Object.entries(deps.sweeps ?? {})) {
      try {
        const removed = await sweep(now);
        if (removed > 0) deps.logger.info({ sweep: name, removed }, 'housekeeping: removed');
      } catch (error) {
        deps.logger.error({ err: error, sweep: name }, 'housekeeping sweep failed');
      }
    }
  });
}
