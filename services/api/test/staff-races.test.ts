// Issue #26: the staff area's check-then-writes under concurrent requests, on both drivers
// (PGlite serialises statements, so a race shows on PostgreSQL). Each burst sends >= 30 requests
// at once and counts what the server actually verified: a 401 means the password or code was
// compared, a 429 that it was refused unseen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  STAFF_EXPORT_MESSAGES,
  STAFF_MESSAGES,
  type StaffExportListResponse,
  type StaffExportResponse,
} from '@admissions/api-contract';
import { sql } from 'drizzle-orm';
import { createAccountMailResolver } from '../src/modules/auth';
import { createStaffAccounts } from '../src/modules/staff/staff-accounts';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';
import { enrolStaffMember, generateStaffCode, STAFF_PASSWORD } from './support/staff-enrolment';

const BURST = 30;

describe.each(availableDrivers())('staff area under concurrent requests (%s)', (driver) => {
  let t: TestRuntime;

  const post = (url: string, body: unknown, cookies?: Record<string, string>) =>
    t.request({ method: 'POST', url, body, cookies });
  const codeAt = (secret: string, offsetSteps = 0) => generateStaffCode(t, secret, offsetSteps);
  const login = (email: string, password = STAFF_PASSWORD) =>
    post('/staff/auth/login', { email, password });

  /** Enrolled, then a step later: the next code of the same step would be a replay. */
  async function enrolStaff(email: string, role: 'reader' | 'exporter' = 'reader') {
    const enrolled = await enrolStaffMember(t, email, role);
    t.clock.advance(30_000);
    return enrolled;
  }

  /** How many of the answers verified something (401), checking the rest were locked (429). */
  function countVerified(answers: LightMyRequestResponse[]): number {
    const verified = answers.filter((res) => res.statusCode === 401).length;
    const locked = answers.filter((res) => res.statusCode === 429);
    expect(verified + locked.length, answers.map((res) => res.statusCode).join()).toBe(
      answers.length,
    );
    for (const res of locked) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    return verified;
  }

  /** Six digits that are none of the codes the ±1-step window accepts now. */
  function wrongCodes(secret: string, count: number): string[] {
    const valid = new Set([codeAt(secret, -1), codeAt(secret), codeAt(secret, 1)]);
    const codes: string[] = [];
    for (let n = 0; codes.length < count; n++) {
      const code = String(100_000 + n * 7919).padStart(6, '0');
      if (!valid.has(code)) codes.push(code);
    }
    return codes;
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    for (const email of ['zoe@example.org', 'ada@example.org']) {
      const jar = await registerApplicant(t, email);
      const saved = await t.request({
        method: 'PUT',
        url: '/api/answer',
        body: { first_name: email.slice(0, 3), last_name: 'Example' },
        cookies: jar,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('a burst of wrong passwords gets 5 verified, and 1 per burst after each lock runs out', async () => {
    const email = 'burst@staff.example.edu';
    await enrolStaff(email);
    const burst = async () =>
      countVerified(
        await Promise.all(
          Array.from({ length: BURST }, (_, i) => login(email, `Wrong-Password-${i}-xyz`)),
        ),
      );
    expect(await burst()).toBe(5);
    expect(await burst()).toBe(0);
    // The fifth failure locked for 1 s, the sixth for 2 s, the seventh for 4 s.
    for (const lockMs of [1000, 2000, 4000]) {
      t.clock.advance(lockMs + 1);
      expect(await burst()).toBe(1);
    }
    // The owner gets in once the last lock has passed.
    t.clock.advance(8001);
    expect((await login(email)).statusCode).toBe(200);
  }, 60_000);

  it('a burst of wrong TOTP codes gets 5 compared, and 1 per burst after each lock runs out', async () => {
    const email = 'totp-burst@staff.example.edu';
    const { secret } = await enrolStaff(email);
    const pending = await login(email);
    expect(pending.statusCode, pending.body).toBe(200);
    const jar = cookiesOf(pending);
    const burst = async () => {
      const answers = await Promise.all(
        wrongCodes(secret, BURST).map((code) => post('/staff/auth/totp', { code }, jar)),
      );
      for (const res of answers.filter((r) => r.statusCode === 401)) {
        expect(res.json().message).toBe(STAFF_MESSAGES.codeRejected);
      }
      return countVerified(answers);
    };
    expect(await burst()).toBe(5);
    expect(await burst()).toBe(0);
    for (const lockMs of [1000, 2000]) {
      t.clock.advance(lockMs + 1);
      expect(await burst()).toBe(1);
    }
    // While the code step is locked, even the right code is refused unseen…
    expect((await post('/staff/auth/totp', { code: codeAt(secret) }, jar)).statusCode).toBe(429);
    // …and a fresh sign-in with the right password does not lift that lock.
    const again = await login(email);
    expect(again.statusCode).toBe(200);
    expect(
      (await post('/staff/auth/totp', { code: codeAt(secret) }, cookiesOf(again))).statusCode,
    ).toBe(429);
    t.clock.advance(4001);
    const done = await post('/staff/auth/totp', { code: codeAt(secret) }, cookiesOf(again));
    expect(done.statusCode, done.body).toBe(200);
  }, 60_000);

  it('a right password whose TOTP step is abandoned is no failure: the sixth sign-in still works', async () => {
    const email = 'abandon@staff.example.edu';
    const { secret } = await enrolStaff(email);
    for (let i = 0; i < 6; i++) {
      const started = await login(email);
      expect(started.statusCode, started.body).toBe(200);
    }
    const last = await login(email);
    expect(last.statusCode, last.body).toBe(200);
    const done = await post('/staff/auth/totp', { code: codeAt(secret) }, cookiesOf(last));
    expect(done.statusCode, done.body).toBe(200);
  }, 60_000);

  it('30 right TOTP codes raced in on one pending sign-in open exactly one session', async () => {
    const email = 'totp-once@staff.example.edu';
    const { secret } = await enrolStaff(email);
    for (let round = 0; round < 3; round++) {
      const pending = await login(email);
      expect(pending.statusCode, pending.body).toBe(200);
      // The current step's code and the next one's: both are accepted once by the ±1 window.
      const codes = [codeAt(secret), codeAt(secret, 1)];
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          post('/staff/auth/totp', { code: codes[i % 2] }, cookiesOf(pending)),
        ),
      );
      const opened = answers.filter((res) => res.statusCode === 200);
      expect(opened, answers.map((res) => res.statusCode).join()).toHaveLength(1);
      for (const res of answers.filter((r) => r.statusCode !== 200)) {
        expect([401, 429]).toContain(res.statusCode);
      }
      // The one session works; the pending one is used up.
      const me = await t.request({
        method: 'GET',
        url: '/staff/api/me',
        cookies: cookiesOf(opened[0]!),
      });
      expect(me.statusCode).toBe(200);
      t.clock.advance(90_000);
    }
  }, 60_000);

  it('a set-up link raced in 30 times sets the password once', async () => {
    const accounts = createStaffAccounts({
      db: t.runtime.database.db,
      clock: t.clock,
      encryptionKey: t.runtime.secrets.encryptionKey,
    });
    const { setupToken } = await accounts.add({
      email: 'setup-race@staff.example.edu',
      role: 'reader',
    });
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        post('/staff/auth/setup', {
          token: setupToken,
          password: `${STAFF_PASSWORD}-${i}`,
          confirm_password: `${STAFF_PASSWORD}-${i}`,
        }),
      ),
    );
    const done = answers.flatMap((res, i) => (res.statusCode === 200 ? [i] : []));
    expect(done).toHaveLength(1);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.json().message).toBe(STAFF_MESSAGES.setupRejected);
    }
    // The password that was set is the one whose request succeeded.
    const signIn = await login('setup-race@staff.example.edu', `${STAFF_PASSWORD}-${done[0]}`);
    expect(signIn.statusCode, signIn.body).toBe(200);
  }, 120_000);

  it("30 concurrent 'forgot password' requests leave exactly one live reset link", async () => {
    const email = 'zoe@example.org';
    const resolve = createAccountMailResolver({
      db: t.runtime.database.db,
      clock: t.clock,
      hmacKey: t.runtime.secrets.hmacKey,
      partner: t.runtime.partner,
      publicUrl: t.config.publicUrl,
      limits: { burst: 1000, perHour: 1000 },
    });
    for (let round = 0; round < 2; round++) {
      // An hour refills the address's e-mail allowance (the sign-up took from it).
      t.clock.advance(60 * 60_000);
      // As the mail worker does (several requests resolved at once), but all of them together.
      const messages = await Promise.all(
        Array.from({ length: BURST }, () => resolve({ account: { kind: 'forgot', email } })),
      );
      expect(messages.every((m) => m !== null)).toBe(true);
      const links = await t.runtime.database.db.execute(
        sql`SELECT r.id_hash FROM password_resets r JOIN users u ON u.id = r.user_id
            WHERE u.email = ${email} AND r.used_at IS NULL`,
      );
      expect(links.rows).toHaveLength(1);
    }
  }, 60_000);

  it('of 30 concurrent export starts by one exporter exactly one runs; the others get 409', async () => {
    const { jar } = await enrolStaff('export-burst@staff.example.edu', 'exporter');
    const get = (url: string) => t.request({ method: 'GET', url, cookies: jar });
    const burst = async (force: boolean) => {
      const answers = await Promise.all(
        Array.from({ length: BURST }, () =>
          post('/staff/api/exports', { filters: { status: 'all' }, format: 'zip', force }, jar),
        ),
      );
      const started = answers.filter((res) => res.statusCode === 202);
      const refused = answers.filter((res) => res.statusCode === 409);
      expect(started.length + refused.length, answers.map((r) => r.statusCode).join()).toBe(BURST);
      for (const res of refused) {
        expect(res.json()).toEqual({ code: 'EXPORT_RUNNING', message: STAFF_EXPORT_MESSAGES.busy });
      }
      return started.map((res) => res.json<StaffExportResponse>().id);
    };
    for (const force of [false, true]) {
      const started = await burst(force);
      expect(started).toHaveLength(1);
      let finished: StaffExportResponse | undefined;
      for (let i = 0; i < 600 && !finished; i++) {
        const body = (await get(`/staff/api/exports/${started[0]}`)).json<StaffExportResponse>();
        if (body.status !== 'running') finished = body;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(finished?.status, finished?.message).toBe('completed');
      expect(finished?.selected).toBe(2);
    }
    // Only the two that ran were ever recorded: no refused start left a row behind.
    const listed = (await get('/staff/api/exports')).json<StaffExportListResponse>();
    expect(listed.exports.map((e) => e.status)).toEqual(['completed', 'completed']);
  }, 180_000);
});
