import type { Logger } from 'pino';
import { seal, unseal } from '../lib/crypto';
import { QUEUES, type JobQueue } from '../jobs/queue';
import type { Mailer, MailMessage } from './mailer';

interface SealedMail {
  sealed: string;
}

/**
 * Queues a message. The payload holds codes and reset links, so it is encrypted before it is
 * written to the job table, and never logged.
 */
export async function enqueueMail(
  queue: JobQueue,
  encryptionKey: Buffer,
  message: MailMessage,
): Promise<void> {
  const data: SealedMail = { sealed: seal(encryptionKey, JSON.stringify(message)) };
  await queue.send(QUEUES.sendEmail, data);
}

export async function startMailWorker(
  queue: JobQueue,
  encryptionKey: Buffer,
  mailer: Mailer,
  logger: Logger,
): Promise<void> {
  await queue.work<SealedMail>(
    QUEUES.sendEmail,
    { pollingIntervalSeconds: 0.5, batchSize: 1 },
    async (jobs) => {
      for (const job of jobs) {
        const message = JSON.parse(unseal(encryptionKey, job.data.sealed)) as MailMessage;
        try {
          await mailer.send(message);
        } catch (error) {
          // pg-boss retries with backoff; the message text stays out of the log.
          logger.warn({ jobId: job.id, err: error }, 'mail delivery failed; will retry');
          throw error;
        }
      }
    },
  );
}
