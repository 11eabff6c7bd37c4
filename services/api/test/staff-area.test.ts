// The staff area's server side (issue #18) on both drivers, through the real routes: local staff
// accounts (set-up link, password, TOTP enrolment and sign-in, lockout), the wall between staff
// and applicant sessions, the list (accent-insensitive search, filters, counts, pages), one
// application read and its PDF (one audit row each, naming the staff member), and the campus
// systems' API keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  SERVICE_MESSAGES,
  STAFF_EXPORT_ROUTES,
  STAFF_MESSAGES,
  type StaffApplicationResponse,
  type StaffListResponse,
} from '@admissions/api-contract';
import { serviceAudit } from '../src/modules/service';
import { users } from '../src/modules/auth';
import { createStaffAccounts } from '../src/modules/staff/staff-accounts';
import { createApiKey, revokeApiKey } from '../src/modules/staff/api-keys';
import { staffListAudit } from '../src/modules/staff/schema';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  TEST_PASSWORD,
  type TestRuntime,
} from './support/test-runtime';
import { enrolStaffMember, generateStaffCode, STAFF_PASSWORD } from './support/staff-enrolment';

describe.each(availableDrivers())('staff area (%s)', (driver) => {
  let t: TestRuntime;
  const ids: Record<string, string> = {};

  const db = () => t.runtime.database.db;
  const accounts = () =>
    createStaffAccounts({
      db: db(),
      clock: t.clock,
      encryptionKey: t.runtime.secrets.encryptionKey,
    });
  const post = (url: string, body: unknown, cookies?: Record<string, string>) =>
    t.request({ method: 'POST', url, body, cookies });
  const get = (url: string, cookies?: Record<string, string>) =>
    t.request({ method: 'GET', url, cookies });
  const codeAt = (secret: string) => generateStaffCode(t, secret);

  const enrolStaff = (email: string, role: 'reader' | 'exporter') =>
    enrolStaffMember(t, email, role);

  /** A live applicant session (the tests move the clock past the idle limit). */
  async function applicantSession(): Promise<Record<string, string>> {
    const login = await post('/public/login', {
      username: 'ada@example.org',
      password: TEST_PASSWORD,
    });
    expect(login.statusCode).toBe(200);
    return cookiesOf(login);
  }

  async function auditCount(userId: string): Promise<number> {
    const rows = await db()
      .select()
      .from(serviceAudit)
      .where(eq(serviceAudit.applicationId, userId));
    return rows.length;
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    const people = [
      {
        email: 'zoe@example.org',
        answers: {
          first_name: 'Zoë',
          last_name: 'Østergaard',
          entry_term: '2027FA',
          applied_major: 'BIO',
        },
      },
      { email: 'ada@example.org', answers: { first_name: 'Ada', last_name: 'Lovelace' } },
      { email: 'grace@example.org', answers: { first_name: 'Grace', last_name: 'Hopper' } },
    ];
    for (const person of people) {
      const jar = await registerApplicant(t, person.email);
      const saved = await t.request({
        method: 'PUT',
        url: '/api/answer',
        body: person.answers,
        cookies: jar,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const [row] = await db()
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, person.email));
      ids[person.email] = row!.id;
    }
    // The staff side only reads: the submission state is seeded directly.
    await db().execute(
      sql`UPDATE applications SET submitted_at = '2026-11-20T10:00:00Z', web_status = '{started,validating,submitted}' WHERE user_id = ${ids['zoe@example.org']}`,
    );
    await db().execute(
      sql`UPDATE applications SET web_status = '{started,validating}' WHERE user_id = ${ids['grace@example.org']}`,
    );
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('enrols TOTP on the first sign-in, then signs in with password and a fresh code only', async () => {
    const { jar, secret } = await enrolStaff('reader@staff.example.edu', 'reader');
    const me = await get('/staff/api/me', jar);
    expect(me.json()).toEqual({ email: 'reader@staff.example.edu', role: 'reader' });

    // Second sign-in: no new secret; the code just used (same time step) is refused, a later one works.
    const login = await post('/staff/auth/login', {
      email: 'reader@staff.example.edu',
      password: STAFF_PASSWORD,
    });
    expect(login.json()).toEqual({ next: 'totp' });
    const pending = cookiesOf(login);
    // A pending sign-in opens nothing but the TOTP step.
    expect((await get('/staff/api/me', pending)).statusCode).toBe(401);
    const replay = await post('/staff/auth/totp', { code: codeAt(secret) }, pending);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(STAFF_MESSAGES.codeRejected);
    t.clock.advance(31_000);
    const ok = await post('/staff/auth/totp', { code: codeAt(secret) }, pending);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await get('/staff/api/me', cookiesOf(ok))).statusCode).toBe(200);
    // The pending session was swapped for a new one.
    expect(cookiesOf(ok).staff_sid).not.toBe(pending.staff_sid);
    expect((await post('/staff/auth/totp', { code: '000000' }, pending)).statusCode).toBe(401);
    // The set-up link worked once.
    const { setupToken } = await accounts().add({
      email: 'once@staff.example.edu',
      role: 'reader',
    });
    const body = { token: setupToken, password: STAFF_PASSWORD, confirm_password: STAFF_PASSWORD };
    expect((await post('/staff/auth/setup', body)).statusCode).toBe(200);
    const again = await post('/staff/auth/setup', body);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(STAFF_MESSAGES.setupRejected);
  });

  it('answers the session probe with 200 whether or not a staff member is signed in', async () => {
    const signedOut = { signed_in: false };
    // Nobody signed in: not a 401 (the staff pages ask on every load), and no cookie to clear.
    const none = await get('/staff/auth/session');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual(signedOut);
    expect(none.headers['set-cookie']).toBeUndefined();
    expect((await get('/staff/api/me')).statusCode).toBe(401);
    // An applicant's session is not a staff one.
    expect((await get('/staff/auth/session', await applicantSession())).json()).toEqual(signedOut);
    // A cookie naming no session: signed out, and the cookie is cleared.
    const stale = await get('/staff/auth/session', { staff_sid: 'no-such-session' });
    expect(stale.json()).toEqual(signedOut);
    expect(String(stale.headers['set-cookie'])).toMatch(/staff_sid=;/);

    const { jar } = await enrolStaff('probe@staff.example.edu', 'exporter');
    const signedIn = await get('/staff/auth/session', jar);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({
      signed_in: true,
      email: 'probe@staff.example.edu',
      role: 'exporter',
    });
    // Half way through a sign-in (password given, code not yet): not signed in.
    t.clock.advance(31_000);
    const login = await post('/staff/auth/login', {
      email: 'probe@staff.example.edu',
      password: STAFF_PASSWORD,
    });
    expect(login.statusCode, login.body).toBe(200);
    expect((await get('/staff/auth/session', cookiesOf(login))).json()).toEqual(signedOut);
    // Signed out: signed out.
    expect((await post('/staff/auth/logout', {}, jar)).statusCode).toBe(200);
    expect((await get('/staff/auth/session', jar)).json()).toEqual(signedOut);
  });

  it('locks a staff e-mail out after five failures, even for the right password', async () => {
    await enrolStaff('lock@staff.example.edu', 'reader');
    for (let i = 0; i < 5; i++) {
      const failed = await post('/staff/auth/login', {
        email: 'lock@staff.example.edu',
        password: 'Wrong-Password-Here-1',
      });
      expect(failed.statusCode).toBe(401);
      expect(failed.json().message).toBe(STAFF_MESSAGES.loginFailed);
    }
    const locked = await post('/staff/auth/login', {
      email: 'lock@staff.example.edu',
      password: STAFF_PASSWORD,
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(16 * 60_000);
    const later = await post('/staff/auth/login', {
      email: 'lock@staff.example.edu',
      password: STAFF_PASSWORD,
    });
    expect(later.statusCode).toBe(200);
  });

  it('keeps staff and applicant sessions apart on every route', async () => {
    const { jar: staffJar } = await enrolStaff('wall@staff.example.edu', 'exporter');
    const spec = t.runtime.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const fill = (path: string) =>
      path.replace(/\{id\}/g, ids['ada@example.org']!).replace(/\{[^}]+\}/g, 'x');
    const calls = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        method: method.toUpperCase(),
        url: fill(path),
      })),
    );
    const staffCalls = calls.filter((c) => c.url.startsWith('/staff/api/'));
    const apiCalls = calls.filter((c) => c.url.startsWith('/api/'));
    expect(staffCalls.length).toBeGreaterThanOrEqual(4);
    expect(apiCalls.length).toBeGreaterThanOrEqual(10);
    const send = (c: { method: string; url: string }, cookies: Record<string, string>) =>
      t.request({
        method: c.method as 'GET',
        url: c.url,
        cookies,
        ...(c.method === 'GET' || c.method === 'DELETE' ? {} : { body: {} }),
      });
    const applicantJar = await applicantSession();
    // A session of the other kind changes nothing: the answer is exactly the one without any
    // cookie (401, or 400 where the body is checked before the session), never a success.
    for (const [targets, jar] of [
      [staffCalls, applicantJar],
      [apiCalls, staffJar],
    ] as const) {
      for (const call of targets) {
        const anonymous = await send(call, {});
        const withOther: LightMyRequestResponse = await send(call, jar);
        const label = `${call.method} ${call.url}: ${withOther.body}`;
        expect(withOther.statusCode, label).toBe(anonymous.statusCode);
        expect([400, 401, 403], label).toContain(withOther.statusCode);
      }
    }
    // Where the request itself is acceptable, the refusal is the session's: 401.
    for (const url of ['/api/profile', '/api/pdf', '/api/document-answer']) {
      expect((await get(url, staffJar)).statusCode, url).toBe(401);
    }
    for (const url of ['/staff/api/me', '/staff/api/applications']) {
      expect((await get(url, applicantJar)).statusCode, url).toBe(401);
    }
    // The TOTP step is the only staff route a pending session opens; an applicant has none.
    expect((await post('/staff/auth/totp', { code: '123456' }, applicantJar)).statusCode).toBe(401);
    // And the applicant's own session still works: the wall is not a broken cookie.
    expect((await get('/api/profile', applicantJar)).statusCode).toBe(200);
    expect((await get('/staff/api/me', staffJar)).statusCode).toBe(200);
  });

  it('finds applications by a part of the name or e-mail without accents, filters, counts and pages', async () => {
    const { jar } = await enrolStaff('finder@staff.example.edu', 'reader');
    const list = async (query: string) => {
      const answer = await get(`/staff/api/applications?${query}`, jar);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<StaffListResponse>();
    };
    const zoe = await list('q=Zoe');
    expect(zoe.rows.map((r) => r.email)).toEqual(['zoe@example.org']);
    expect(zoe.rows[0]).toMatchObject({
      id: ids['zoe@example.org'],
      name: 'Zoë Østergaard',
      status: 'submitted',
      submitted_at: '2026-11-20T10:00:00.000Z',
      // Labels from the definition (the partner's entry terms, the majors list), not the codes.
      entry_term: 'Fall 2027',
      major: 'Biology',
    });
    expect((await list('q=ostergaard')).total).toBe(1);
    expect((await list('q=%C3%98STERG')).total).toBe(1);
    expect((await list('q=zoe%20gaard')).total).toBe(1);
    expect((await list('q=grace%40example')).rows[0]?.email).toBe('grace@example.org');
    expect((await list('q=nobody')).total).toBe(0);

    const all = await list('');
    expect(all.counts).toEqual({ started: 1, validating: 1, submitted: 1 });
    expect(all.total).toBe(3);
    const validating = await list('status=validating');
    expect(validating.rows.map((r) => r.email)).toEqual(['grace@example.org']);
    expect(validating.counts).toEqual(all.counts);
    expect((await list('from=2026-11-20&to=2026-11-20')).total).toBe(1);
    expect((await list('from=2026-11-21')).total).toBe(0);
    const byName = await list('sort=name_asc&page_size=2');
    expect(byName.rows.map((r) => r.name)).toEqual(['Grace Hopper', 'Ada Lovelace']);
    expect(byName.total).toBe(3);
    const second = await list('sort=name_asc&page_size=2&page=2');
    expect(second.rows.map((r) => r.name)).toEqual(['Zoë Østergaard']);
    expect((await get('/staff/api/applications?sort=evil', jar)).statusCode).toBe(400);

    // The search text follows later changes of the name.
    const renamed = await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { last_name: 'Byron-King' },
      cookies: await applicantSession(),
    });
    expect(renamed.statusCode).toBe(200);
    expect((await list('q=byron')).rows.map((r) => r.email)).toEqual(['ada@example.org']);
  });

  it('refuses a day that does not exist (400, saying so) in the list, the campus API and an export', async () => {
    const reader = await enrolStaff('calendar@staff.example.edu', 'reader');
    const exporter = await enrolStaff('calendar-exporter@staff.example.edu', 'exporter');
    const { key } = await createApiKey(db(), { name: 'dates', scope: 'read', now: t.clock.now() });
    const auth = { authorization: `Bearer ${key}` };
    for (const day of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31']) {
      for (const field of ['from', 'to']) {
        const message = `The field "${field}" must be a date that exists, written YYYY-MM-DD.`;
        const listed = await get(`/staff/api/applications?${field}=${day}`, reader.jar);
        expect([listed.statusCode, listed.json().message]).toEqual([400, message]);
        const served = await t.request({
          method: 'GET',
          url: `/service/applications?${field}=${day}`,
          headers: auth,
        });
        expect([served.statusCode, served.json().message]).toEqual([400, message]);
        const exported = await post(
          STAFF_EXPORT_ROUTES.exports,
          { filters: { [field]: day }, format: 'zip' },
          exporter.jar,
        );
        expect([exported.statusCode, exported.json().message]).toEqual([
          400,
          `The field "filters.${field}" must be a date that exists, written YYYY-MM-DD.`,
        ]);
      }
    }
    // A leap year's 29 February is a day.
    expect((await get('/staff/api/applications?from=2024-02-29', reader.jar)).statusCode).toBe(200);
  });

  it('checks who is asking before it checks what they sent', async () => {
    const reader = await enrolStaff('nosy@staff.example.edu', 'reader');
    // A reader learns that exports are not theirs, not what an export's body looks like.
    for (const body of [{}, { filters: { from: 'yesterday' } }, { format: 'tar', extra: 1 }]) {
      const refused = await post(STAFF_EXPORT_ROUTES.exports, body, reader.jar);
      expect([refused.statusCode, refused.json().message]).toEqual([403, STAFF_MESSAGES.forbidden]);
    }
    // Without a key or a session, a malformed query is still only "who are you?".
    const anonymous = await t.request({
      method: 'GET',
      url: '/service/applications?from=2024-02-30&sort=evil',
    });
    expect([anonymous.statusCode, anonymous.json().message]).toEqual([
      401,
      STAFF_MESSAGES.apiKeyInvalid,
    ]);
    const minted = await t.request({ method: 'POST', url: '/service/tokens', body: { nope: 1 } });
    expect(minted.statusCode).toBe(401);
    expect((await get('/staff/api/applications?page=0')).statusCode).toBe(401);
  });

  it('reads one application and its PDF, each writing exactly one audit row naming the staff member', async () => {
    const { jar } = await enrolStaff('auditor@staff.example.edu', 'reader');
    const id = ids['zoe@example.org']!;
    const before = await auditCount(id);
    const read = await get(`/staff/api/applications/${id}`, jar);
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json<StaffApplicationResponse>();
    const firstName = body.print.view.pages
      .flatMap((p) => p.sections.flatMap((s) => s.rows))
      .find((r) => r.key === 'first_name');
    expect(firstName?.value).toBe('Zoë');
    expect(body.print.applicant.name).toBe('Zoë Østergaard');
    expect(body.documents).toEqual([]);
    expect(await auditCount(id)).toBe(before + 1);
    const [row] = await db()
      .select()
      .from(serviceAudit)
      .where(eq(serviceAudit.applicationId, id))
      .orderBy(sql`${serviceAudit.id} DESC`)
      .limit(1);
    expect(row).toMatchObject({ action: 'print-view', staffEmail: 'auditor@staff.example.edu' });
    expect(row!.staffId).toMatch(/^[0-9a-f-]{36}$/);

    const pdf = await get(body.pdf_url, jar);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await auditCount(id)).toBe(before + 2);

    // Nothing is audited for a refused read, and an unknown id is 404.
    expect((await get(`/staff/api/applications/${id}`, await applicantSession())).statusCode).toBe(
      401,
    );
    expect(
      (await get('/staff/api/applications/00000000-0000-4000-8000-000000000000', jar)).statusCode,
    ).toBe(404);
    expect(await auditCount(id)).toBe(before + 2);
  }, 60_000);

  it('serves campus systems with a scoped API key and refuses a revoked one', async () => {
    const { id: keyId, key } = await createApiKey(db(), {
      name: 'SIS',
      scope: 'read',
      now: t.clock.now(),
    });
    const auth = { authorization: `Bearer ${key}` };
    const list = await t.request({
      method: 'GET',
      url: '/service/applications?q=zoe',
      headers: auth,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<StaffListResponse>().rows[0]?.id).toBe(ids['zoe@example.org']);

    const minted = await t.request({
      method: 'POST',
      url: '/service/tokens',
      headers: auth,
      body: { application_id: ids['zoe@example.org'] },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const { token, url } = minted.json<{ token: string; url: string }>();
    expect(new URL(url).searchParams.get('service_token')).toBe(token);
    const printed = await get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`);
    expect(printed.statusCode).toBe(200);
    expect(printed.json().applicant.name).toBe('Zoë Østergaard');

    // The key alone reads nothing else, and the key never stands in for a session.
    expect(
      (await t.request({ method: 'GET', url: '/staff/api/applications', headers: auth }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.request({ method: 'GET', url: '/api/profile', headers: auth })).statusCode,
    ).toBe(401);
    // Other writes on /service/ stay refused.
    expect(
      (await t.request({ method: 'POST', url: '/service/applications', headers: auth, body: {} }))
        .statusCode,
    ).toBe(403);

    expect(await revokeApiKey(db(), keyId, t.clock.now())).toBe(true);
    for (const request of [
      { method: 'GET' as const, url: '/service/applications' },
      {
        method: 'POST' as const,
        url: '/service/tokens',
        body: { application_id: ids['zoe@example.org'] },
      },
    ]) {
      const refused = await t.request({ ...request, headers: auth });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(STAFF_MESSAGES.apiKeyInvalid);
    }
    expect((await t.request({ method: 'GET', url: '/service/applications' })).statusCode).toBe(401);
    // Hashed at rest: the key itself is nowhere in the table.
    const stored = await db().execute(sql`SELECT key_hash FROM staff_api_keys`);
    expect(JSON.stringify(stored.rows)).not.toContain(key.slice(3));
  });

  it("records the API key in the audit of its tokens' reads, limits tokens to the key's scope and stops them when the key is revoked", async () => {
    const zoe = ids['zoe@example.org']!;
    const mint = async (key: string) => {
      const minted = await t.request({
        method: 'POST',
        url: '/service/tokens',
        headers: { authorization: `Bearer ${key}` },
        body: { application_id: zoe },
      });
      expect(minted.statusCode, minted.body).toBe(200);
      return encodeURIComponent(minted.json<{ token: string }>().token);
    };
    const lastAudit = async () => {
      const [row] = await db()
        .select()
        .from(serviceAudit)
        .where(eq(serviceAudit.applicationId, zoe))
        .orderBy(sql`${serviceAudit.id} DESC`)
        .limit(1);
      return row;
    };
    const reader = await createApiKey(db(), { name: 'SIS', scope: 'read', now: t.clock.now() });
    const exporter = await createApiKey(db(), {
      name: 'Archive',
      scope: 'export',
      now: t.clock.now(),
    });
    const readToken = await mint(reader.key);
    const exportToken = await mint(exporter.key);

    // A read key's token reads the print view and the PDF; each row names the key.
    expect((await get(`/service/tmp-pdf?service_token=${readToken}`)).statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'print-view', apiKeyId: reader.id });
    expect((await get(`/service/pdf?service_token=${readToken}`)).statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'pdf', apiKeyId: reader.id });

    // An export key's token opens the PDF only.
    const refused = await get(`/service/tmp-pdf?service_token=${exportToken}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'SERVICE_TOKEN_SCOPE',
      message: SERVICE_MESSAGES.tokenScope,
    });
    expect(await lastAudit()).toMatchObject({ action: 'pdf', apiKeyId: reader.id });
    expect((await get(`/service/pdf?service_token=${exportToken}`)).statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'pdf', apiKeyId: exporter.id });

    // Revoking a key stops the tokens it minted at once, not when they expire.
    expect(await revokeApiKey(db(), reader.id, t.clock.now())).toBe(true);
    for (const url of ['/service/tmp-pdf', '/service/pdf']) {
      const dead = await get(`${url}?service_token=${readToken}`);
      expect(dead.statusCode).toBe(401);
      expect(dead.json().message).toBe(SERVICE_MESSAGES.tokenInvalid);
    }
    expect((await get(`/service/pdf?service_token=${exportToken}`)).statusCode).toBe(200);
  }, 60_000);

  it('writes one list-audit row per list or search: who, when, the query and how many matched', async () => {
    const { jar } = await enrolStaff('lister@staff.example.edu', 'reader');
    const key = await createApiKey(db(), { name: 'Lister', scope: 'read', now: t.clock.now() });
    const audit = async () =>
      db()
        .select()
        .from(staffListAudit)
        .orderBy(sql`${staffListAudit.id}`);
    const before = (await audit()).length;
    const searched = await get('/staff/api/applications?q=zoe&sort=name_asc', jar);
    expect(searched.statusCode).toBe(200);
    const listed = await t.request({
      method: 'GET',
      url: '/service/applications?page_size=2',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(listed.statusCode).toBe(200);
    // Refused requests list nothing and write nothing.
    expect((await get('/staff/api/applications')).statusCode).toBe(401);
    const rows = (await audit()).slice(before);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      staffEmail: 'lister@staff.example.edu',
      apiKeyId: null,
      query: { q: 'zoe', sort: 'name_asc' },
      total: 1,
      shown: 1,
    });
    expect(rows[0]!.createdAt.getTime()).toBe(t.clock.now().getTime());
    expect(rows[1]).toMatchObject({
      staffId: null,
      apiKeyId: key.id,
      query: { page_size: 2 },
      total: listed.json<StaffListResponse>().total,
      shown: 2,
    });
    // Append-only, like the read audit.
    await expect(db().execute(sql`DELETE FROM staff_list_audit`)).rejects.toThrow();
  }, 60_000);
});
