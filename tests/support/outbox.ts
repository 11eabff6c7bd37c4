import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The outbox format of GUIDE.md §2. */
export interface OutboxMessage {
  to: string | string[];
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

/** Waits for a message to `to`, sent at or after `since`, whose text matches `pattern`. */
export async function waitForMail(
  outboxDir: string,
  to: string,
  since: number,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(outboxDir)) {
      for (const file of readdirSync(outboxDir)
        .filter((name) => name.endsWith('.json'))
        .sort()) {
        const message = JSON.parse(
          readFileSync(path.join(outboxDir, file), 'utf8'),
        ) as OutboxMessage;
        const recipients = Array.isArray(message.to) ? message.to.join(',') : message.to;
        if (
          recipients.toLowerCase().includes(to.toLowerCase()) &&
          Date.parse(message.sentAt) >= since &&
          pattern.test(message.text)
        ) {
          return message;
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No e-mail to ${to} matching ${pattern} within ${timeoutMs} ms`);
}
