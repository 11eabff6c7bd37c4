import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { enqueueMail, startMailWorker } from '../src/modules/mail/mail-jobs';
import type { Mailer, MailMessage } from '../src/platform/mail/mailer';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';

/** An SMTP server as the worker sees it: slow enough to overlap, refusing one address once. */
function createRecordingMailer(refuseOnce: string) {
  const delivered: string[] = [];
  const attempts = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const mailer: Mailer = {
    async send(message: MailMessage) {
      attempts.set(message.to, (attempts.get(message.to) ?? 0) + 1);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 40));
        if (message.to === refuseOnce && attempts.get(message.to) === 1) {
          throw new Error('450 mailbox temporarily unavailable');
        }
        delivered.push(message.to);
      } finally {
        inFlight--;
      }
    },
    close: () => undefined,
  };
  return { mailer, delivered, attempts, maxInFlight: () => maxInFlight };
}

describe.each(availableDrivers())('mail delivery on %s', (driver) => {
  let t: TestRuntime;
  const smtp = createRecordingMailer('bounce@example.org');
  const recipients = [
    ...Array.from({ length: 11 }, (_, i) => `applicant${i}@example.org`),
    'bounce@example.org',
  ];

  beforeAll(async () => {
    // No in-process worker: the one under test is the only consumer of the queue.
    t = await createTestRuntime(driver, { RUN_WORKER_IN_PROCESS: 'false' });
    for (const to of recipients) {
      await enqueueMail(t.runtime.queue, t.runtime.secrets.encryptionKey, {
        to,
        subject: 'Your confirmation code',
        text: 'Your code is 123456',
        html: '<p>Your code is 123456</p>',
      });
    }
    await startMailWorker(
      t.runtime.queue,
      t.runtime.secrets.encryptionKey,
      smtp.mailer,
      pino({ level: 'silent' }),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it('sends queued messages several at a time, each once, and retries only the refused one', async () => {
    const deadline = Date.now() + 40_000;
    while (smtp.delivered.length < recipients.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([...smtp.delivered].sort()).toEqual([...recipients].sort());
    expect(smtp.attempts.get('bounce@example.org')).toBe(2);
    for (const to of recipients.filter((r) => r !== 'bounce@example.org')) {
      expect(smtp.attempts.get(to)).toBe(1);
    }
    expect(smtp.maxInFlight()).toBeGreaterThan(1);
  }, 60_000);
});
