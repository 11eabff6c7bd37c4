import type { Logger } from 'pino';
import { seal, unseal } from '../../platform/lib/crypto';
import {
  sendJob,
  workJobs,
  type JobQueue,
  type QueueDefinition,
} from '../../platform/queue/job-queue';
import type { Mailer, MailMessage } from '../../platform/mail/mailer';

/**
 * What an anonymous account route asks the mail worker to do. The route queues this whatever the
 * state of the address and answers at once; the worker looks the account up and decides what, if
 * anything, to send. So the route does the same work for every address (no timing difference
 * between an account and no account), and the per-address limits act out of the requester's sight.
 */
export interface AccountMailRequest {
  account: {
    kind: 'signup' | 'resend' | 'forgot';
    email: string;
    /** On sign-up: whether this request created the account (else it met an existing one). */
    created?: boolean;
  };
}

export function isAccountMailRequest(job: object): job is AccountMailRequest {
  return 'account' in job;
}

export type AccountMailResolver = (request: AccountMailRequest) => Promise<MailMessage | null>;

/** Retried with back-off for about half an hour of SMTP trouble. */
export const MAIL_QUEUE: QueueDefinition = {
  name: 'send-email',
  options: { retryLimit: 8, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
};

/** A message ready to send, or an account request the worker turns into one (or into nothing). */
export type MailJob = MailMessage | AccountMailRequest;

interface SealedMail {
  sealed: string;
}

/**
 * Queues a message. The payload holds codes, reset links and addresses, so it is encrypted
 * before it is written to the job table, and never logged.
 */
export async function enqueueMail(
  queue: JobQueue,
  encryptionKey: Buffer,
  message: MailJob,
): Promise<void> {
  const data: SealedMail = { sealed: seal(encryptionKey, JSON.stringify(message)) };
  await sendJob(queue, MAIL_QUEUE.name, data);
}

/** Messages fetched at once, and how many of them are sent in parallel. */
const MAIL_BATCH_SIZE = 16;
const MAIL_PARALLEL_SENDS = 4;

/**
 * Sends queued mail. A pg-boss loop waits out its polling interval after every fetch, so one job
 * per fetch capped a worker at two messages a second — confirmation codes queued up behind each
 * other on a deadline night. A batch is sent a few at a time; a message that fails is failed on
 * its own (pg-boss retries it with backoff) and the others of its batch complete, so nobody gets
 * the same code twice because a neighbour's address bounced.
 */
export async function startMailWorker(
  queue: JobQueue,
  encryptionKey: Buffer,
  mailer: Mailer,
  logger: Logger,
  /** Given by every server and worker (jobs/workers.ts); tests of plain messages leave it out. */
  resolveAccountMail?: AccountMailResolver,
): Promise<void> {
  const resolve = async (data: MailJob): Promise<MailMessage | null> => {
    if (!isAccountMailRequest(data)) return data;
    if (!resolveAccountMail) throw new Error('this worker cannot decide account e-mails');
    return resolveAccountMail(data);
  };
  await workJobs<SealedMail>(
    queue,
    MAIL_QUEUE.name,
    { pollingIntervalSeconds: 0.5, batchSize: MAIL_BATCH_SIZE },
    async (jobs) => {
      let next = 0;
      const sendRemaining = async () => {
        while (next < jobs.length) {
          const job = jobs[next++]!;
          try {
            const data = JSON.parse(unseal(encryptionKey, job.data.sealed)) as MailJob;
            // An account request decided here can come to nothing (no account, or the
            // address's limit reached): the job completes quietly.
            const message = await resolve(data);
            if (message) await mailer.send(message);
          } catch (error) {
            // The message text stays out of the log (codes, reset links).
            logger.warn({ jobId: job.id, err: error }, 'mail delivery failed; will retry');
            await queue.fail(MAIL_QUEUE.name, job.id, { message: 'delivery failed' });
          }
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(MAIL_PARALLEL_SENDS, jobs.length) }, sendRemaining),
      );
    },
  );
}
