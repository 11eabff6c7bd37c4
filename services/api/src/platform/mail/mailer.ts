import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise the outbox (README.md): one JSON file per message under
 * DATA_DIR/outbox with to, subject, text, html and sentAt. Only the subject is logged.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  logger: Logger;
}): Mailer {
  const { smtpUrl, from, dataDir, logger } = options;
  if (smtpUrl) {
    // nodemailer loads with the first message, not with every process start.
    let transport: Promise<Transporter> | undefined;
    const connect = () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport(smtpUrl, {
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        }),
      ));
    return {
      async send(message) {
        await (await connect()).sendMail({ from, ...message });
        logger.info({ subject: message.subject }, 'mail sent');
      },
      close: () => void transport?.then((open) => open.close()),
    };
  }
  const outbox = path.join(dataDir, 'outbox');
  return {
    async send(message) {
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const sentAt = new Date().toISOString();
      const name = `${sentAt.replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.json`;
      const body = JSON.stringify({ ...message, sentAt }, null, 2);
      // Write then rename, so a reader never sees half a message.
      const temp = path.join(outbox, `.${name}.tmp`);
      await writeFile(temp, body, { mode: 0o600 });
      await rename(temp, path.join(outbox, name));
      logger.info({ subject: message.subject }, 'mail written to outbox');
    },
    close: () => undefined,
  };
}

/**
 * How long a message stays in the outbox: the longest any code or link it carries stays usable
 * (a confirmation code, 24 hours; a reset link, one hour). After that the file holds nothing the
 * recipient can still use, only who was written to, about what, and when.
 */
export const OUTBOX_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Removes outbox files (messages, and the temporaries of a write that was interrupted) last
 * written before `before`; returns how many. No outbox (SMTP from the start) is nothing to do.
 */
export async function deleteOutboxMessagesBefore(dataDir: string, before: Date): Promise<number> {
  const outbox = path.join(dataDir, 'outbox');
  let names: string[];
  try {
    names = await readdir(outbox);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(outbox, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.mtime >= before) continue;
    await rm(file, { force: true });
    removed++;
  }
  return removed;
}
