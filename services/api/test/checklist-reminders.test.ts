// Reminders to recommenders (issue #30), with the manual clock, through the real housekeeping job
// and mail queue: three automatic reminders a week apart and no more, none once the letter is in,
// the applicant's own reminder once a day, and the link's 60 days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  CHECKLIST_MESSAGES,
  DOCUMENT_MESSAGES,
  type ChecklistResponse,
} from '@admissions/api-contract';
import { HOUSEKEEPING_QUEUE } from '../src/modules/auth';
import { CHECKLIST_CONVERSION_QUEUE, listChecklistEvents } from '../src/modules/checklist';
import { sendJob } from '../src/platform/queue/job-queue';
import {
  availableDrivers,
  cookiesOf,
  primaryDriver,
  createTestRuntime,
  TEST_PASSWORD,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const DAY = 24 * 60 * 60 * 1000;

/** Runs the housekeeping job once, as its schedule does, and waits for it to finish. */
async function runHousekeeping(t: TestRuntime): Promise<void> {
  const id = await sendJob(t.runtime.queue, HOUSEKEEPING_QUEUE.name, {});
  for (let i = 0; i < 400; i++) {
    const job = await t.runtime.queue.getJobById(HOUSEKEEPING_QUEUE.name, id!);
    if (job?.state === 'completed') return;
    if (job?.state === 'failed') throw new Error('housekeeping failed');
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('housekeeping did not run');
}

describe.each(availableDrivers())('reminders to recommenders (%s)', (driver) => {
  let t: TestRuntime;
  let applicant: Record<string, string>;
  let applicationId: string;
  const ids: Record<string, string> = {};

  /** A fresh session: the manual clock moves past a session's life. */
  async function signIn(): Promise<Record<string, string>> {
    const login = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: 'ada@example.org', password: TEST_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    return cookiesOf(login);
  }

  async function remindersTo(recommenderId: string, actor = 'system'): Promise<number> {
    const events = await listChecklistEvents(t.runtime.database.db, applicationId);
    return events.filter(
      (e) => e.action === 'reminder-sent' && e.recommenderId === recommenderId && e.actor === actor,
    ).length;
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    applicant = await registerApplicant(t, 'ada@example.org');
    await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { first_name: 'Ada', last_name: 'Lovelace', counselor_waiver_request: 'N' },
      cookies: applicant,
    });
    for (const [type, email] of [
      ['teacher', 'slow@school.example.org'],
      ['counselor', 'prompt@school.example.org'],
    ] as const) {
      const added = await t.request({
        method: 'POST',
        url: '/api/recommenders',
        body: { type, name: `${type} person`, email },
        cookies: applicant,
      });
      expect(added.statusCode, added.body).toBe(200);
      const checklist = added.json<ChecklistResponse>();
      ids[type] = checklist.recommenders.find((r) => r.email === email)!.id;
      const invitation = await t.waitForMail(email, /recommendation/);
      if (type === 'counselor') {
        const token = /\/recommend\/([A-Za-z0-9_-]+)/.exec(invitation.text)![1]!;
        const letter = await t.request({
          method: 'POST',
          url: `/public/recommendations/${token}`,
          body: { known_years: 4, capacity: 'School counselor', letter_text: 'A fine student.' },
        });
        expect(letter.statusCode, letter.body).toBe(200);
      }
    }
    const rows = await t.runtime.database.db.execute<{ id: string }>(
      sql`SELECT id FROM applications LIMIT 1`,
    );
    applicationId = rows.rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('reminds three times a week apart, then never again; never after the letter came', async () => {
    // Six days in: nobody is due yet.
    t.clock.advance(6 * DAY);
    await runHousekeeping(t);
    expect(await remindersTo(ids.teacher!)).toBe(0);
    const sent: number[] = [];
    for (let week = 1; week <= 5; week++) {
      t.clock.advance(week === 1 ? DAY + 60_000 : 7 * DAY);
      await runHousekeeping(t);
      if (week <= 3) {
        const mail = await t.waitForMail('slow@school.example.org', /^Reminder/);
        expect(mail.text).toContain('/recommend/');
        expect(mail.text).toContain('has not waived the right to read your letter');
      }
      // Twice in the same tick: the rule holds under a repeated sweep. (The sweep also clears
      // outbox files older than its retention by the manual clock, so the mail is read first.)
      await runHousekeeping(t);
      sent.push(await remindersTo(ids.teacher!));
    }
    expect(sent).toEqual([1, 2, 3, 3, 3]);
    expect(await remindersTo(ids.counselor!)).toBe(0);
  });

  it("sends the applicant's reminder once a day, and none to a recommender who submitted", async () => {
    applicant = await signIn();
    const remind = (id: string) =>
      t.request({ method: 'POST', url: `/api/recommenders/${id}/remind`, cookies: applicant });
    const first = await remind(ids.teacher!);
    expect(first.statusCode, first.body).toBe(200);
    const after = first.json<ChecklistResponse>().recommenders.find((r) => r.id === ids.teacher);
    expect(new Date(after!.remind_after!).getTime()).toBe(t.clock.now().getTime() + DAY);
    const second = await remind(ids.teacher!);
    expect(second.statusCode).toBe(429);
    expect(second.json().message).toBe(CHECKLIST_MESSAGES.reminderTooSoon);
    expect(Number(second.headers['retry-after'])).toBe(DAY / 1000);
    t.clock.advance(DAY);
    applicant = await signIn();
    expect((await remind(ids.teacher!)).statusCode).toBe(200);
    expect(await remindersTo(ids.teacher!, 'applicant')).toBe(2);
    const done = await remind(ids.counselor!);
    expect(done.statusCode).toBe(409);
    expect(done.json().code).toBe('RECOMMENDER_LOCKED');
  });

  it('lets a link expire after 60 days: the page and the submit answer 410', async () => {
    // Five weeks and two days have passed; another four weeks pass the 60 days.
    t.clock.advance(28 * DAY);
    applicant = await signIn();
    const email = 'late@school.example.org';
    const added = await t.request({
      method: 'POST',
      url: '/api/recommenders',
      body: { type: 'other', name: 'Late Person', email },
      cookies: applicant,
    });
    expect(added.statusCode).toBe(200);
    const token = /\/recommend\/([A-Za-z0-9_-]+)/.exec((await t.waitForMail(email)).text)![1]!;
    t.clock.advance(60 * DAY - 1000);
    expect(
      (await t.request({ method: 'GET', url: `/public/recommendations/${token}` })).statusCode,
    ).toBe(200);
    t.clock.advance(2000);
    const expired = await t.request({ method: 'GET', url: `/public/recommendations/${token}` });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(CHECKLIST_MESSAGES.linkExpired);
    const late = await t.request({
      method: 'POST',
      url: `/public/recommendations/${token}`,
      body: { known_years: 1, capacity: 'Other', letter_text: 'Too late.' },
    });
    expect(late.statusCode).toBe(410);
  });
});

describe.each(primaryDriver())('a letter whose conversion job was lost (%s)', (driver) => {
  let t: TestRuntime;
  afterAll(async () => {
    await t?.close();
  });

  it('fails after the conversion time-out with the reason, and takes the letter again', async () => {
    t = await createTestRuntime(driver);
    // Nothing takes the conversion job, as when every worker died past the queue's retries.
    await t.runtime.queue.offWork(CHECKLIST_CONVERSION_QUEUE.name);
    const applicant = await registerApplicant(t, 'ada@example.org');
    await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { first_name: 'Ada', last_name: 'Lovelace', counselor_waiver_request: 'Y' },
      cookies: applicant,
    });
    const added = await t.request({
      method: 'POST',
      url: '/api/recommenders',
      body: { type: 'teacher', name: 'Charles Babbage', email: 'babbage@school.example.org' },
      cookies: applicant,
    });
    expect(added.statusCode, added.body).toBe(200);
    const mail = await t.waitForMail('babbage@school.example.org', /recommendation/);
    const token = /\/recommend\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const letter = {
      known_years: 3,
      capacity: 'Teacher',
      letter_file: {
        file_name: 'letter.pdf',
        content_base64: Buffer.from('%PDF-1.4\n').toString('base64'),
      },
    };
    const first = await t.request({
      method: 'POST',
      url: `/public/recommendations/${token}`,
      body: letter,
    });
    expect(first.json()).toMatchObject({ status: 'converting' });
    const failed = async () => {
      await runHousekeeping(t);
      const events = await t.request({ method: 'GET', url: `/public/recommendations/${token}` });
      return events.json<{ status: string }>().status;
    };
    const stuckAfter = 3 * t.config.conversionTimeoutMs + 60_000;
    t.clock.advance(stuckAfter - 1000);
    expect(await failed()).toBe('converting');
    t.clock.advance(2000);
    expect(await failed()).toBe('failed');
    const page = await t.request({ method: 'GET', url: `/public/recommendations/${token}` });
    expect(page.json()).toMatchObject({
      status: 'failed',
      message: DOCUMENT_MESSAGES.conversionUnavailable,
    });
    const again = await t.request({
      method: 'POST',
      url: `/public/recommendations/${token}`,
      body: letter,
    });
    expect(again.statusCode, again.body).toBe(200);
  });
});
