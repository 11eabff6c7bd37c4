import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/connect';

export const QUEUES = {
  sendEmail: 'send-email',
  convertDocument: 'convert-document',
  renderApplicationPdf: 'render-application-pdf',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

const QUEUE_SETUP_LOCK_ID = 7_201_312;

export type JobQueue = PgBoss;

/**
 * pg-boss on whichever database the app uses. On PGlite it runs through the same single
 * connection as the app (GUIDE §6: exec for parameterless scripts, query otherwise).
 */
export async function startJobQueue(database: Database, logger: Logger): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // Each queue sets its own retention; the default keeps finished jobs only briefly because
    // payloads may hold personal data.
    deleteAfterSeconds: 60 * 60,
    monitorStateIntervalSeconds: 60,
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await database.withAdvisoryLock(QUEUE_SETUP_LOCK_ID, async () => {
    await boss.start();
    await boss.createQueue(QUEUES.sendEmail, {
      name: QUEUES.sendEmail,
      retryLimit: 8,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 120,
    });
    // Two retries, for infrastructure failures only (a bad document completes as FAILED). The
    // worker's own time-out kills LibreOffice long before pg-boss's expiry.
    await boss.createQueue(QUEUES.convertDocument, {
      name: QUEUES.convertDocument,
      retryLimit: 2,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 15 * 60,
    });
    // Two retries (storage or renderer trouble); the last failure is recorded as FAILED.
    await boss.createQueue(QUEUES.renderApplicationPdf, {
      name: QUEUES.renderApplicationPdf,
      retryLimit: 2,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 5 * 60,
    });
  });
  return boss;
}
