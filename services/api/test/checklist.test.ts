// After submit (issue #30), on both drivers, through the real routes, LibreOffice and the mail
// outbox: recommenders and their single-purpose links, letters typed and uploaded, the FERPA wall
// around letters, the office's requests and waivers (processor only), the audit, and that none
// of it touches the submitted answers.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  CHECKLIST_MESSAGES,
  STAFF_MESSAGES,
  type ChecklistResponse,
  type RecommendationPage,
} from '@admissions/api-contract';
import { users } from '../src/modules/auth';
import {
  CHECKLIST_CONVERSION_QUEUE,
  listChecklistEvents,
  recommenders,
} from '../src/modules/checklist';
import {
  availableDrivers,
  countMail,
  createTestRuntime,
  registerApplicant,
  type OutboxMessage,
  type TestRuntime,
} from './support/test-runtime';
import { buildWordPackage, wParagraph } from './support/docx-builder';
import { enrolStaffMember } from './support/staff-enrolment';

const LETTER_SENTENCE = 'Ada is the most original mathematician I have taught in thirty years';

/** The link a recommender's e-mail carries, and its token. */
function linkFrom(message: OutboxMessage): { url: URL; token: string } {
  const match = /https?:\/\/\S+\/recommend\/([A-Za-z0-9_-]+)/.exec(message.text);
  if (!match) throw new Error(`no recommendation link in: ${message.text}`);
  return { url: new URL(match[0]), token: match[1]! };
}

function buildLetterDocx(): Uint8Array {
  return buildWordPackage({
    body: [
      wParagraph('To the Admissions Committee,'),
      wParagraph(`${LETTER_SENTENCE}.`),
      wParagraph('Sincerely, Charles Babbage'),
    ].join(''),
  });
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe.each(availableDrivers())('checklist after submit (%s)', (driver) => {
  let t: TestRuntime;
  let applicant: Record<string, string>;
  let applicationId: string;
  const db = () => t.runtime.database.db;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    cookies?: Record<string, string>,
  ) => t.request({ method, url, body, cookies });

  async function readChecklist(): Promise<ChecklistResponse> {
    const response = await call('GET', '/api/checklist', undefined, applicant);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ChecklistResponse>();
  }

  /** Polls until the check holds (a conversion runs in the worker). */
  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 600; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('timed out');
  }

  /** A hash of everything the applicant submitted: the answers and the documents. */
  async function hashSubmission(): Promise<string> {
    const result = await db().execute<{ answer: unknown; sensitive: unknown; docs: unknown }>(sql`
      SELECT a.answer, a.sensitive, a.submitted_at,
        (SELECT coalesce(jsonb_agg(d ORDER BY d.answer_key), '[]'::jsonb)
         FROM document_answers d WHERE d.application_id = a.id) AS docs
      FROM applications a WHERE a.id = ${applicationId}`);
    return sha256(JSON.stringify(result.rows[0]));
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver, { REQUEST_TIMEOUT_MS: '600000' });
    applicant = await registerApplicant(t, 'ada@example.org');
    const saved = await call(
      'PUT',
      '/api/answer',
      { first_name: 'Ada', last_name: 'Lovelace', email_address: 'ada.private@example.org' },
      applicant,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await db()
      .execute<{ id: string }>(
        sql`SELECT a.id FROM applications a JOIN users u ON u.id = a.user_id WHERE u.email = 'ada@example.org'`,
      )
      .then((r) => r.rows);
    applicationId = row!.id;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('asks for the FERPA answer before the first recommender, then sends exactly one link', async () => {
    const early = await call(
      'POST',
      '/api/recommenders',
      { type: 'teacher', name: 'Charles Babbage', email: 'babbage@school.example.org' },
      applicant,
    );
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'FERPA_UNANSWERED',
      message: CHECKLIST_MESSAGES.ferpaUnanswered,
    });
    expect(countMail(t, 'babbage@school.example.org', /./)).toBe(0);

    const ferpa = await call('PUT', '/api/answer', { counselor_waiver_request: 'Y' }, applicant);
    expect(ferpa.statusCode).toBe(200);
    const added = await call(
      'POST',
      '/api/recommenders',
      { type: 'teacher', name: 'Charles Babbage', email: 'Babbage@School.example.org ' },
      applicant,
    );
    expect(added.statusCode, added.body).toBe(200);
    const checklist = added.json<ChecklistResponse>();
    expect(checklist.recommenders).toEqual([
      expect.objectContaining({
        type: 'teacher',
        name: 'Charles Babbage',
        email: 'babbage@school.example.org',
        status: 'invited',
        ferpa_waived: true,
      }),
    ]);
    const teacherItem = checklist.items.find((i) => i.id === 'teacher-1');
    expect(teacherItem).toMatchObject({ status: 'awaiting', required: true });

    const mail = await t.waitForMail('babbage@school.example.org', /recommendation/);
    expect(mail.text).toContain('Ada Lovelace');
    expect(mail.text).toContain('waived the right to read your letter');
    linkFrom(mail);
    // Exactly one e-mail, and one audit row for the link sent.
    await new Promise((r) => setTimeout(r, 300));
    expect(countMail(t, 'babbage@school.example.org', /./)).toBe(1);
    const events = await listChecklistEvents(db(), applicationId);
    expect(events.filter((e) => e.action === 'link-sent')).toHaveLength(1);
  });

  it('refuses the applicant as their own recommender, and a recommender past the limit', async () => {
    const self = await call(
      'POST',
      '/api/recommenders',
      { type: 'other', name: 'Me', email: 'ADA@example.org' },
      applicant,
    );
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(
      "Please enter your recommender's e-mail address, not your own.",
    );
    const counselor = await call(
      'POST',
      '/api/recommenders',
      { type: 'counselor', name: 'Mary Somerville', email: 'somerville@school.example.org' },
      applicant,
    );
    expect(counselor.statusCode).toBe(200);
    const second = await call(
      'POST',
      '/api/recommenders',
      { type: 'counselor', name: 'Another Counselor', email: 'another@school.example.org' },
      applicant,
    );
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('RECOMMENDER_LIMIT');
  });

  it('opens the link without a session: only the applicant’s name and the form', async () => {
    const { token } = linkFrom(await latestMailTo('babbage@school.example.org'));
    const page = await call('GET', `/public/recommendations/${token}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<RecommendationPage>()).toEqual({
      applicant_name: 'Ada Lovelace',
      recommender_name: 'Charles Babbage',
      type: 'teacher',
      school_name: expect.any(String),
      ferpa_waived: true,
      status: 'open',
      expires_at: expect.any(String),
      text_limit: 10_000,
    });
    expect(page.body).not.toContain('ada@example.org');
    expect(page.body).not.toContain('ada.private@example.org');
    const unknown = await call('GET', `/public/recommendations/${'x'.repeat(43)}`);
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().message).toBe(CHECKLIST_MESSAGES.linkInvalid);
  });

  /** The newest outbox message to `to`. */
  async function latestMailTo(to: string): Promise<OutboxMessage> {
    const { readdirSync, readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const dir = path.join(t.dataDir, 'outbox');
    const messages = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as OutboxMessage)
      .filter((m) => m.to === to);
    const last = messages.at(-1);
    if (!last) throw new Error(`no mail to ${to}`);
    return last;
  }

  it('takes a Word letter through the converter once, marks it Received with its date, then 409', async () => {
    const before = await hashSubmission();
    const { token } = linkFrom(await latestMailTo('babbage@school.example.org'));
    const docx = buildLetterDocx();
    const body = {
      known_years: 3,
      capacity: 'Teacher',
      letter_file: {
        file_name: 'letter.docx',
        content_base64: Buffer.from(docx).toString('base64'),
      },
    };
    // 30 submits at once through the same link: one is taken.
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call('POST', `/public/recommendations/${token}`, body)),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(29);

    const received = await waitFor(readChecklist, (c) =>
      c.items.some((i) => i.id === 'teacher-1' && i.status === 'received'),
    );
    const item = received.items.find((i) => i.id === 'teacher-1')!;
    expect(new Date(item.received_at!).getTime()).toBe(t.clock.now().getTime());
    expect(received.recommenders.find((r) => r.type === 'teacher')?.status).toBe('received');

    const again = await call('POST', `/public/recommendations/${token}`, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CHECKLIST_MESSAGES.alreadySubmitted);
    const page = await call('GET', `/public/recommendations/${token}`);
    expect(page.json<RecommendationPage>().status).toBe('received');

    const events = await listChecklistEvents(db(), applicationId);
    expect(events.filter((e) => e.action === 'letter-submitted')).toHaveLength(1);
    expect(events.filter((e) => e.action === 'link-opened').length).toBeGreaterThanOrEqual(2);
    expect(await hashSubmission()).toBe(before);

    // With the FERPA waiver, no applicant route returns a byte of the letter.
    const [stored] = await db()
      .select()
      .from(recommenders)
      .where(eq(recommenders.id, item.recommender_id!));
    const pdf = await t.runtime.storage.read(stored!.letterPdfKey!, 10_000_000);
    expect(pdf).not.toBeNull();
    await expectNoApplicantRouteReveals([
      LETTER_SENTENCE,
      sha256(pdf!),
      sha256(docx),
      Buffer.from(docx).toString('base64').slice(0, 200),
      stored!.letterPdfKey!,
    ]);
  });

  /** Calls every GET route of `applicant` access in the OpenAPI document with the session. */
  async function expectNoApplicantRouteReveals(secrets: string[]) {
    const spec = t.runtime.app.swagger() as unknown as {
      paths: Record<string, Record<string, { 'x-access'?: { kind: string } }>>;
    };
    let crawled = 0;
    for (const [openApiPath, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (method !== 'get' || operation['x-access']?.kind !== 'applicant') continue;
        if (openApiPath === '/api/logout') continue;
        const url = openApiPath.replace('{key}', 'resume_doc');
        const response = await call('GET', url, undefined, applicant);
        crawled++;
        const bytes = response.rawPayload;
        for (const secret of secrets) {
          expect(bytes.includes(Buffer.from(secret)), `${url} shows ${secret}`).toBe(false);
        }
        expect(sha256(bytes)).not.toBe(secrets[1]);
      }
    }
    expect(crawled).toBeGreaterThanOrEqual(8);
  }

  it('kills the old link when the e-mail changes, and sends one new link', async () => {
    const old = linkFrom(await latestMailTo('somerville@school.example.org'));
    const counselor = (await readChecklist()).recommenders.find((r) => r.type === 'counselor')!;
    const changed = await call(
      'PUT',
      `/api/recommenders/${counselor.id}`,
      { type: 'counselor', name: 'Mary Somerville', email: 'mary@school.example.org' },
      applicant,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const dead = await call('GET', `/public/recommendations/${old.token}`);
    expect(dead.statusCode).toBe(403);
    const fresh = linkFrom(await t.waitForMail('mary@school.example.org', /recommendation/));
    expect((await call('GET', `/public/recommendations/${fresh.token}`)).statusCode).toBe(200);
    // A typed letter works too, and is received at once.
    const typed = await call('POST', `/public/recommendations/${fresh.token}`, {
      known_years: 2,
      capacity: 'School counselor',
      letter_text: 'Ada is a remarkable student and a kind classmate.',
    });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json()).toEqual({
      status: 'received',
      message: CHECKLIST_MESSAGES.letterReceived,
    });
    const checklist = await readChecklist();
    expect(checklist.items.find((i) => i.id === 'counselor')?.status).toBe('received');
    await expectNoApplicantRouteReveals(['Ada is a remarkable student and a kind classmate']);
  });

  it('lets a processor request an item (one e-mail, a slot, one audit row); a reader gets 403', async () => {
    const before = await hashSubmission();
    const version = async () =>
      (
        await db().execute<{ version: number }>(
          sql`SELECT version FROM applications WHERE id = ${applicationId}`,
        )
      ).rows[0]!.version;
    const versionBefore = await version();
    const reader = await enrolStaffMember(t, 'reader@staff.example.edu', 'reader');
    const processor = await enrolStaffMember(t, 'processor@staff.example.edu', 'processor');
    const body = { title: 'Official transcript', message: 'Please upload your final transcript.' };
    const refused = await call(
      'POST',
      `/staff/api/applications/${applicationId}/requests`,
      body,
      reader.jar,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(STAFF_MESSAGES.forbidden);

    const requested = await call(
      'POST',
      `/staff/api/applications/${applicationId}/requests`,
      body,
      processor.jar,
    );
    expect(requested.statusCode, requested.body).toBe(200);
    const mail = await t.waitForMail('ada@example.org', /Official transcript/);
    expect(mail.text).toContain('Please upload your final transcript.');
    const slot = (await readChecklist()).items.find((i) => i.title === 'Official transcript');
    expect(slot).toMatchObject({ kind: 'request', status: 'awaiting', uploadable: true });
    const events = await listChecklistEvents(db(), applicationId);
    expect(
      events.filter((e) => e.action === 'request' && e.actor === 'processor@staff.example.edu'),
    ).toHaveLength(1);
    expect(await version()).toBe(versionBefore + 1);
    expect(await hashSubmission()).toBe(before);
  });

  it('takes the requested file on the status page and marks the item Received', async () => {
    const before = await hashSubmission();
    const slot = (await readChecklist()).items.find((i) => i.title === 'Official transcript')!;
    const png = await call(
      'POST',
      `/api/checklist/${slot.id}/document`,
      { file_name: 'transcript.png', content_base64: 'iVBORw0KGgo=' },
      applicant,
    );
    expect(png.statusCode).toBe(400);
    expect(png.json().message).toBe(CHECKLIST_MESSAGES.fileTypeRefused);
    const docx = buildLetterDocx();
    const uploaded = await call(
      'POST',
      `/api/checklist/${slot.id}/document`,
      { file_name: 'transcript.docx', content_base64: Buffer.from(docx).toString('base64') },
      applicant,
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const done = await waitFor(readChecklist, (c) =>
      c.items.some((i) => i.id === slot.id && i.status === 'received'),
    );
    expect(done.items.find((i) => i.id === slot.id)?.uploadable).toBe(false);
    const again = await call(
      'POST',
      `/api/checklist/${slot.id}/document`,
      { file_name: 'transcript.docx', content_base64: Buffer.from(docx).toString('base64') },
      applicant,
    );
    expect(again.statusCode).toBe(409);
    expect(await hashSubmission()).toBe(before);
  });

  it('counts the staff list column as the checklist does, and filters by it', async () => {
    const processor = await enrolStaffMember(t, 'lister@staff.example.edu', 'processor');
    const list = await call('GET', '/staff/api/applications', undefined, processor.jar);
    const row = list
      .json<{ rows: { id: string; checklist: { done: number; required: number } }[] }>()
      .rows.find((r) => r.id === applicationId)!;
    const checklist = await readChecklist();
    const required = checklist.items.filter((i) => i.required);
    expect(row.checklist).toEqual({
      done: required.filter((i) => i.status !== 'awaiting').length,
      required: required.length,
    });
    const awaiting = await call(
      'GET',
      '/staff/api/applications?checklist=awaiting',
      undefined,
      processor.jar,
    );
    const complete = await call(
      'GET',
      '/staff/api/applications?checklist=complete',
      undefined,
      processor.jar,
    );
    const ids = (r: typeof awaiting) => r.json<{ rows: { id: string }[] }>().rows.map((x) => x.id);
    // Not submitted: the application item itself is awaited.
    expect(checklist.complete).toBe(false);
    expect(ids(awaiting)).toContain(applicationId);
    expect(ids(complete)).not.toContain(applicationId);
  });

  it('adds recommenders under the limit only, with 30 at once', async () => {
    const other = await registerApplicant(t, 'grace@example.org');
    await call('PUT', '/api/answer', { counselor_waiver_request: 'N' }, other);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(
          'POST',
          '/api/recommenders',
          { type: 'teacher', name: `Teacher ${i}`, email: `t${i}@school.example.org` },
          other,
        ),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(28);
    const [user] = await db().select().from(users).where(eq(users.email, 'grace@example.org'));
    const rows = await db().execute<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM recommenders r JOIN applications a ON a.id = r.application_id WHERE a.user_id = ${user!.id}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(2);
  });
});

describe.each(availableDrivers())('checklist against a hostile applicant (%s)', (driver) => {
  let t: TestRuntime;
  let jar: Record<string, string>;
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    cookies: Record<string, string> | undefined = jar,
  ) => t.request({ method, url, body, cookies });
  const tokenOf = (message: OutboxMessage) => linkFrom(message).token;

  beforeAll(async () => {
    t = await createTestRuntime(driver, { REQUEST_TIMEOUT_MS: '600000' });
    jar = await registerApplicant(t, 'lin@example.org');
    await call('PUT', '/api/answer', {
      first_name: 'Lin',
      last_name: 'Yutang',
      counselor_waiver_request: 'Y',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to rename or readdress a recommender whose letter is converting, and a new address inherits nothing', async () => {
    // Nothing converts in this test: the letter stays in conversion.
    await t.runtime.queue.offWork(CHECKLIST_CONVERSION_QUEUE.name);
    const added = await call('POST', '/api/recommenders', {
      type: 'teacher',
      name: 'Accomplice',
      email: 'accomplice@example.net',
    });
    const id = added.json<ChecklistResponse>().recommenders[0]!.id;
    const token = tokenOf(await t.waitForMail('accomplice@example.net', /recommendation/));
    const upload = await call(
      'POST',
      `/public/recommendations/${token}`,
      {
        known_years: 9,
        capacity: 'Teacher',
        letter_file: {
          file_name: 'letter.docx',
          content_base64: Buffer.from(buildLetterDocx()).toString('base64'),
        },
      },
      undefined,
    );
    expect(upload.json()).toMatchObject({ status: 'converting' });
    const renamed = await call('PUT', `/api/recommenders/${id}`, {
      type: 'teacher',
      name: 'A Real Teacher',
      email: 'real.teacher@school.example.org',
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().message).toBe(CHECKLIST_MESSAGES.letterInConversion);
    expect(countMail(t, 'real.teacher@school.example.org', /./)).toBe(0);
    // Removing them drops the upload; a new person under a new address starts clean.
    const removed = await call('DELETE', `/api/recommenders/${id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const again = await call('POST', '/api/recommenders', {
      type: 'teacher',
      name: 'A Real Teacher',
      email: 'real.teacher@school.example.org',
    });
    expect(again.statusCode, again.body).toBe(200);
    const fresh = tokenOf(await t.waitForMail('real.teacher@school.example.org', /recommendation/));
    const page = await call('GET', `/public/recommendations/${fresh}`, undefined, undefined);
    expect(page.json<RecommendationPage>()).toMatchObject({ status: 'open' });
    expect(page.json<RecommendationPage>().message).toBeUndefined();
  });

  it('sends a new address the FERPA answer as it is now', async () => {
    const checklist = (await call('GET', '/api/checklist')).json<ChecklistResponse>();
    const teacher = checklist.recommenders[0]!;
    expect(teacher.ferpa_waived).toBe(true);
    await call('PUT', '/api/answer', { counselor_waiver_request: 'N' });
    const moved = await call('PUT', `/api/recommenders/${teacher.id}`, {
      type: 'teacher',
      name: 'A Real Teacher',
      email: 'teacher.home@example.org',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<ChecklistResponse>().recommenders[0]!.ferpa_waived).toBe(false);
    const mail = await t.waitForMail('teacher.home@example.org', /recommendation/);
    expect(mail.text).toContain('has not waived the right to read your letter');
    const page = await call(
      'GET',
      `/public/recommendations/${tokenOf(mail)}`,
      undefined,
      undefined,
    );
    expect(page.json<RecommendationPage>().ferpa_waived).toBe(false);
  });

  it('stops a flood of invitations, and refuses display names, quotes and control characters', async () => {
    const checklist = (await call('GET', '/api/checklist')).json<ChecklistResponse>();
    const id = checklist.recommenders[0]!.id;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const moved = await call('PUT', `/api/recommenders/${id}`, {
        type: 'teacher',
        name: 'Spam Target',
        email: `target${i}@example.org`,
      });
      statuses.push(moved.statusCode);
    }
    // Ten invitations at once per application (three were sent above).
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.slice(7).every((s) => s === 429)).toBe(true);
    for (const email of ['<lin@example.org>', '"lin"@example.org', 'lin@example.org.']) {
      const refused = await call('POST', '/api/recommenders', { type: 'other', name: 'X', email });
      expect(refused.statusCode, email).toBe(400);
    }
    const injected = await call('POST', '/api/recommenders', {
      type: 'other',
      name: 'Evil\r\nBcc: victim@example.org',
      email: 'other@example.org',
    });
    expect(injected.statusCode).toBe(400);
  });

  it("writes a staff audit row for a staff member's read of the checklist", async () => {
    const { jar: staff } = await enrolStaffMember(t, 'reader@staff.example.edu', 'reader');
    const [row] = (
      await t.runtime.database.db.execute<{ id: string }>(sql`SELECT id FROM applications LIMIT 1`)
    ).rows;
    const read = await call(
      'GET',
      `/staff/api/applications/${row!.id}/checklist`,
      undefined,
      staff,
    );
    expect(read.statusCode, read.body).toBe(200);
    const audit = await t.runtime.database.db.execute<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM service_audit WHERE application_id = ${row!.id} AND action = 'checklist' AND staff_email = 'reader@staff.example.edu'`,
    );
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });
});
