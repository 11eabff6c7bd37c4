import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type ApplicationPdfResponse } from '@admissions/api-contract';
import { sendJob } from '../src/platform/queue/job-queue';
import { HOUSEKEEPING_QUEUE } from '../src/modules/auth';
import { HOUSEKEEPING_CRON } from '../src/modules/auth/housekeeping';
import { ORPHAN_PDF_GRACE_MS, createApplicationPdfKey } from '../src/modules/print';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  resetIdFrom,
  type TestRuntime,
} from './support/test-runtime';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Polls (the tick runs in the worker) until `done`, for at most 20 s. */
async function waitUntil(done: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200 && !(await done()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(availableDrivers())('housekeeping on %s', (driver) => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function countRows(
    table: 'sessions' | 'login_throttle' | 'address_throttle' | 'password_resets',
  ): Promise<number> {
    const { rows } = await t.runtime.database.executeSql(`SELECT count(*)::int AS n FROM ${table}`);
    return Number(rows[0]?.n);
  }

  it('is scheduled cluster-wide every ten minutes', async () => {
    const schedules = await t.runtime.queue.getSchedules();
    expect(schedules.find((s) => s.name === HOUSEKEEPING_QUEUE.name)?.cron).toBe(HOUSEKEEPING_CRON);
  });

  it('deletes sessions and login-failure counters that can never count again, and nothing live', async () => {
    const profile = (cookies: Record<string, string>) =>
      t.request({ method: 'GET', url: '/api/profile', cookies });
    const stale = await registerApplicant(t, `stale.${driver}@example.org`);
    const wrong = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: `forgetful.${driver}@example.org`, password: 'Not-The-Password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    // Past the 15-minute idle limit and the 15-minute memory of login failures.
    t.clock.advance(16 * MINUTE);
    const live = await registerApplicant(t, `live.${driver}@example.org`);
    const locked = `locked.${driver}@example.org`;
    for (let i = 0; i < 10; i++) {
      await t.request({
        method: 'POST',
        url: '/public/login',
        body: { username: locked, password: 'Not-The-Password-1' },
      });
    }
    expect(await countRows('sessions')).toBe(2);
    expect(await countRows('login_throttle')).toBe(2);

    await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
    for (let i = 0; i < 200 && (await countRows('sessions')) > 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(await countRows('sessions')).toBe(1);
    // The fresh counter (the account just locked) stays; the forgotten one is gone.
    expect(await countRows('login_throttle')).toBe(1);
    expect((await profile(live)).statusCode).toBe(200);
    expect((await profile(stale)).statusCode).toBe(401);
    const stillLocked = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: locked, password: 'Not-The-Password-1' },
    });
    expect(stillLocked.statusCode).toBe(429);
  });

  it('deletes per-address allowances untouched for a day, and keeps fresh ones', async () => {
    // A confirmation try takes from the address's allowance, known address or not.
    const tryCode = (username: string) =>
      t.request({ method: 'POST', url: '/public/confirm', body: { username, code: '123456' } });
    const before = await countRows('address_throttle');
    await tryCode(`quiet.${driver}@example.org`);
    t.clock.advance(25 * 60 * MINUTE);
    await tryCode(`busy.${driver}@example.org`);
    expect(await countRows('address_throttle')).toBe(before + 2);

    await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
    for (let i = 0; i < 200 && (await countRows('address_throttle')) > 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await countRows('address_throttle')).toBe(1);
  });

  it('deletes reset links that expired or were used, and keeps a live one', async () => {
    const forgot = async (username: string) => {
      const asked = await t.request({
        method: 'POST',
        url: '/public/forgot-password',
        body: { username },
      });
      expect(asked.statusCode).toBe(200);
      return t.waitForMail(username, /Reset your/);
    };
    const expired = `reset.old.${driver}@example.org`;
    const live = `reset.live.${driver}@example.org`;
    await registerApplicant(t, expired);
    await registerApplicant(t, live);
    const before = await countRows('password_resets');
    await forgot(expired);
    // Past the link's hour.
    t.clock.advance(61 * MINUTE);
    const liveMail = await forgot(live);
    expect(await countRows('password_resets')).toBe(before + 2);

    await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
    await waitUntil(async () => (await countRows('password_resets')) === 1);

    expect(await countRows('password_resets')).toBe(1);
    const password = 'Juniper-Harbour-Quartz-71';
    const reset = await t.request({
      method: 'POST',
      url: '/public/reset-password',
      body: { username: live, password, confirm_password: password, id: resetIdFrom(liveMail).id },
    });
    expect(reset.json()).toEqual({ message: MESSAGES.resetDone });
  });

  it('removes outbox e-mails once the codes and links in them are dead, and keeps recent ones', async () => {
    // The embedded default writes every e-mail (confirmation codes, reset links) to DATA_DIR/outbox.
    const outbox = path.join(t.dataDir, 'outbox');
    const mailTo = (to: string) =>
      readdirSync(outbox).find(
        (f) =>
          f.endsWith('.json') &&
          (JSON.parse(readFileSync(path.join(outbox, f), 'utf8')) as { to: string }).to === to,
      ) ?? '';
    await registerApplicant(t, `outbox.old.${driver}@example.org`);
    await registerApplicant(t, `outbox.fresh.${driver}@example.org`);
    const old = mailTo(`outbox.old.${driver}@example.org`);
    const fresh = mailTo(`outbox.fresh.${driver}@example.org`);
    expect(old).not.toBe('');
    expect(fresh).not.toBe('');
    const now = t.clock.now().getTime();
    const age = (file: string, ms: number) => {
      const at = new Date(now - ms);
      utimesSync(path.join(outbox, file), at, at);
    };
    age(old, 25 * HOUR);
    age(fresh, 23 * HOUR);
    // The temporary of a write that was cut short carries the same message.
    const partial = `.${old}.tmp`;
    writeFileSync(path.join(outbox, partial), '{"to":');
    age(partial, 25 * HOUR);

    await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
    await waitUntil(() => !existsSync(path.join(outbox, old)));

    expect(existsSync(path.join(outbox, old))).toBe(false);
    expect(existsSync(path.join(outbox, partial))).toBe(false);
    expect(existsSync(path.join(outbox, fresh))).toBe(true);
  });

  it('removes generated application PDFs no row records, and keeps the cached one', async () => {
    const jar = await registerApplicant(t, `pdf.${driver}@example.org`);
    let body: ApplicationPdfResponse | undefined;
    for (let i = 0; i < 300; i++) {
      const response = await t.request({ method: 'GET', url: '/api/pdf', cookies: jar });
      expect(response.statusCode).toBe(200);
      body = response.json() as ApplicationPdfResponse;
      if (body.status !== 'UNPROCESSED' && body.status !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(body?.status).toBe('COMPLETED');
    const { rows } = await t.runtime.database.executeSql(
      `SELECT application_id::text AS "userId", storage_key AS key FROM application_pdfs`,
    );
    const cached = rows.map((r) => String(r.key));
    expect(cached).toHaveLength(1);
    // What a render whose worker died between storing the PDF and recording it leaves behind.
    const orphan = createApplicationPdfKey(String(rows[0]?.userId), 'applicant');
    await t.runtime.storage.write(
      orphan,
      new Uint8Array([0x25, 0x50, 0x44, 0x46]),
      'application/pdf',
    );
    const stored = async () => {
      const keys: string[] = [];
      for await (const object of t.runtime.storage.list('applications/')) keys.push(object.key);
      return keys.sort();
    };
    expect(await stored()).toEqual([...cached, orphan].sort());

    // Both are older than the grace period a render in progress is given.
    t.clock.set(new Date(Date.now() + ORPHAN_PDF_GRACE_MS + MINUTE));
    await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
    await waitUntil(async () => !(await stored()).includes(orphan));

    expect(await stored()).toEqual(cached);
    expect(await t.runtime.storage.read(cached[0] ?? '', 10_000_000)).not.toBeNull();
  });
  it('removes letters and requested files of deleted accounts, and keeps one a request records', async () => {
    await registerApplicant(t, `checklist.${driver}@example.org`);
    const { rows } = await t.runtime.database.executeSql(
      `SELECT a.id::text AS id FROM applications a JOIN users u ON u.id = a.user_id
       WHERE u.email = 'checklist.${driver}@example.org'`,
    );
    const applicationId = String(rows[0]?.id);
    const kept = `checklist/${applicationId}/transcript.pdf`;
    await t.runtime.database.executeSql(
      `INSERT INTO checklist_requests (application_id, title, message, requested_by, requested_at, pdf_key, received_at)
       VALUES ('${applicationId}', 'Official transcript', 'Please send it.', 'office@staff.example.edu', now(), '${kept}', now())`,
    );
    // A deleted account's letter: its rows went with it (ON DELETE CASCADE), the file stayed.
    const orphans = [
      'checklist/00000000-0000-4000-8000-00000000abcd/letter.pdf',
      'checklist/00000000-0000-4000-8000-00000000abcd/letter.docx',
    ];
    for (const key of [kept, ...orphans]) {
      await t.runtime.storage.write(
        key,
        new Uint8Array([0x25, 0x50, 0x44, 0x46]),
        'application/pdf',
      );
    }
    const stored = async () => {
      const keys: string[] = [];
      for await (const object of t.runtime.storage.list('checklist/')) keys.push(object.key);
      return keys.sort();
    };
    expect(await stored()).toEqual([kept, ...orphans].sort());

    // Older than the longest a conversion may take before it records its file.
    t.clock.set(new Date(Date.now() + 3 * t.config.conversionTimeoutMs + 6 * MINUTE));
    await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
    await waitUntil(async () => (await stored()).length === 1);

    expect(await stored()).toEqual([kept]);
  });
});
