import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@admissions/api-contract';
import { ALLOWED_ANSWER_KEYS, maxLengthFor } from '@admissions/form';
import { hashToken } from '../src/platform/lib/crypto';
import { COMPLETE_ANSWERS, NOW } from '../../../packages/form/test/fixtures/complete-answers';
import {
  availableDrivers,
  countMail,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

describe.each(availableDrivers())('the application API on %s', (driver) => {
  let t: TestRuntime;
  let counter = 0;
  const freshEmail = () => `student${++counter}.${driver}@example.org`;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    // The fixture is a complete application as of NOW (ages and date windows depend on it).
    t.clock.set(NOW);
  });
  afterAll(async () => {
    const log = t.logs.join('');
    expect(log).not.toContain(COMPLETE_ANSWERS.ssn);
    await t.close();
  });

  const api = (
    jar: Record<string, string>,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    body?: unknown,
  ) => t.request({ method, url, body, cookies: jar });

  it('merges saved answers and keeps the SSN encrypted at rest', async () => {
    const jar = await registerApplicant(t, freshEmail());
    expect(
      (await api(jar, 'PUT', '/api/answer', { first_name: 'Zoë', ssn: '123-45-6789' })).json(),
    ).toEqual({
      message: MESSAGES.answersSaved,
    });
    await api(jar, 'PUT', '/api/answer', { last_name: 'Łukasz' });
    const profile = (await api(jar, 'GET', '/api/profile')).json();
    expect(profile.answer).toEqual({ first_name: 'Zoë', last_name: 'Łukasz', ssn: '123-45-6789' });

    const raw = await t.runtime.database.executeSql(
      'SELECT answer::text || sensitive::text AS t FROM applications',
    );
    expect(raw.rows.map((r) => String(r.t)).join()).not.toContain('123-45-6789');
  });

  it('refuses unknown keys, over-long and non-text values with a clear message, saving nothing', async () => {
    const jar = await registerApplicant(t, freshEmail());
    const unknown = await api(jar, 'PUT', '/api/answer', { first_name: 'Ana', is_admin: 'true' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('"is_admin" is not a question of this application.');
    const long = await api(jar, 'PUT', '/api/answer', { first_name: 'x'.repeat(46) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(
      'The answer to "first_name" is too long (at most 45 characters).',
    );
    const number = await api(jar, 'PUT', '/api/answer', { first_name: 5 });
    expect(number.statusCode).toBe(400);
    expect((await api(jar, 'GET', '/api/profile')).json().answer).toEqual({});
  });

  it('keeps 200 of 200 concurrent saves of different keys', async () => {
    const jar = await registerApplicant(t, freshEmail());
    // 200 distinct keys the definition knows, each saved once with its own value in its own
    // request, all in flight at once.
    const keys = [...ALLOWED_ANSWER_KEYS]
      .filter((k) => !k.endsWith('_doc') && (maxLengthFor(k) ?? 0) >= 3)
      .slice(0, 200);
    expect(new Set(keys).size).toBe(200);
    const valueOf = (i: number) => String(i + 1);
    const responses = await Promise.all(
      keys.map((key, i) => api(jar, 'PUT', '/api/answer', { [key]: valueOf(i) })),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(200);
    const saved = (await api(jar, 'GET', '/api/profile')).json().answer as Record<string, string>;
    expect(keys.filter((key, i) => saved[key] === valueOf(i))).toHaveLength(200);
  });

  it('moves the web status forward only, idempotently', async () => {
    const jar = await registerApplicant(t, freshEmail());
    const statuses = async () =>
      ((await api(jar, 'GET', '/api/profile')).json().web_status as { web_status: string }[]).map(
        (e) => e.web_status,
      );
    expect((await api(jar, 'POST', '/api/web-status', { web_status: 'started' })).statusCode).toBe(
      200,
    );
    expect((await api(jar, 'POST', '/api/web-status', { web_status: 'started' })).statusCode).toBe(
      200,
    );
    expect(await statuses()).toEqual(['started']);
    await api(jar, 'POST', '/api/web-status', { web_status: 'validating' });
    await api(jar, 'POST', '/api/web-status', { web_status: 'started' });
    expect(await statuses()).toEqual(['started', 'validating']);
    const early = await api(jar, 'POST', '/api/web-status', { web_status: 'submitted' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MESSAGES.submitFirst);
    const bogus = await api(jar, 'POST', '/api/web-status', { web_status: 'admitted' });
    expect(bogus.statusCode).toBe(400);
  });

  it('refuses an incomplete submission with every missing answer', async () => {
    const jar = await registerApplicant(t, freshEmail());
    await api(jar, 'PUT', '/api/answer', { first_name: 'Ana' });
    const res = await api(jar, 'POST', '/api/submit');
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.missingInformation);
    expect(body.errors.last_name).toEqual(['Last/Family Name']);
    expect(body.errors.first_name).toBeUndefined();
    expect(body.errors.legal_agree).toBeDefined();
    // Still open for changes.
    expect((await api(jar, 'PUT', '/api/answer', { last_name: 'Ruiz' })).statusCode).toBe(200);
  });

  it('submits a complete application, clears hidden answers and freezes it', async () => {
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    // f1_visa only shows to international applicants; this one is a U.S. citizen.
    await api(jar, 'PUT', '/api/answer', { ...COMPLETE_ANSWERS, f1_visa: 'Y' });
    await api(jar, 'PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'essay' });
    const res = await api(jar, 'POST', '/api/submit');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.submitted });
    expect((await t.waitForMail(email, /We received your/)).text).toContain(MESSAGES.submitted);

    const profile = (await api(jar, 'GET', '/api/profile')).json();
    expect(profile.answer.f1_visa ?? '').toBe('');
    expect(profile.answer.first_name).toBe(COMPLETE_ANSWERS.first_name);
    expect(profile.web_status).toHaveLength(3);

    const mutations: ['PUT' | 'POST', string, unknown][] = [
      ['PUT', '/api/answer', { first_name: 'Changed' }],
      ['PUT', '/api/last-page', { last_page: '/about' }],
      ['POST', '/api/web-status', { web_status: 'validating' }],
      ['POST', '/api/validations', { first_name: ['First/Given Name'] }],
      ['PUT', '/api/add-another', { button_id: 'parents', num_components: 2 }],
      ['PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'upload' }],
    ];
    for (const [method, url, body] of mutations) {
      const after = await api(jar, method, url, body);
      expect(after.statusCode, url).toBe(409);
      expect(after.json().message).toBe(MESSAGES.alreadySubmitted);
    }
    // Confirming the submitted status and submitting again are harmless repeats.
    expect(
      (await api(jar, 'POST', '/api/web-status', { web_status: 'submitted' })).statusCode,
    ).toBe(200);
    expect((await api(jar, 'POST', '/api/submit')).statusCode).toBe(200);
    expect((await api(jar, 'GET', '/api/profile')).json().answer.first_name).toBe(
      COMPLETE_ANSWERS.first_name,
    );
  });

  it('makes exactly one submission of 50 concurrent submits', async () => {
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    await api(jar, 'PUT', '/api/answer', COMPLETE_ANSWERS);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => api(jar, 'POST', '/api/submit')),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    await t.waitForMail(email, /We received your/);
    // Give a second (wrong) confirmation time to arrive before counting.
    await new Promise((r) => setTimeout(r, 1500));
    expect(countMail(t, email, /We received your/)).toBe(1);
    const rows = await t.runtime.database.executeSql(
      'SELECT count(*)::int AS n FROM applications a JOIN users u ON u.id = a.user_id WHERE u.email = $1 AND submitted_at IS NOT NULL',
      [email],
    );
    expect(rows.rows[0]?.n).toBe(1);
  });

  it('keeps each student to their own application', async () => {
    const alice = await registerApplicant(t, freshEmail());
    const bob = await registerApplicant(t, freshEmail());
    await api(alice, 'PUT', '/api/answer', { first_name: 'Alice' });
    await api(bob, 'PUT', '/api/answer', { first_name: 'Bob' });
    await api(bob, 'PUT', '/api/add-another', { button_id: 'high_schools', num_components: 3 });
    expect((await api(alice, 'GET', '/api/profile')).json().answer).toEqual({
      first_name: 'Alice',
    });
    expect((await api(alice, 'GET', '/api/add-another')).json()).toEqual({});
    expect((await api(bob, 'GET', '/api/add-another')).json()).toEqual({ high_schools: 3 });
  });

  it('stores add-another counts and tab choices within their limits', async () => {
    const jar = await registerApplicant(t, freshEmail());
    expect(
      (await api(jar, 'PUT', '/api/add-another', { button_id: 'legacy', num_components: 4 }))
        .statusCode,
    ).toBe(200);
    const tooMany = await api(jar, 'PUT', '/api/add-another', {
      button_id: 'parents',
      num_components: 3,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('You can add at most 2 of these.');
    expect(
      (await api(jar, 'PUT', '/api/add-another', { button_id: 'parents', num_components: 11 }))
        .statusCode,
    ).toBe(400);
    expect(
      (await api(jar, 'PUT', '/api/add-another', { button_id: 'nope', num_components: 1 }))
        .statusCode,
    ).toBe(400);
    expect((await api(jar, 'GET', '/api/add-another')).json()).toEqual({ legacy: 4 });

    await api(jar, 'PUT', '/api/answer', { personal_statement_essay: 'My essay.' });
    await api(jar, 'PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'upload' });
    expect((await api(jar, 'GET', '/api/tabs')).json()).toEqual({ personal_statement: 'upload' });
    expect((await api(jar, 'GET', '/api/profile')).json().answer.personal_statement_essay).toBe('');
    expect(
      (await api(jar, 'PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'video' }))
        .statusCode,
    ).toBe(400);
  });

  it('stores the latest validation map and the last page', async () => {
    const jar = await registerApplicant(t, freshEmail());
    expect(
      (await api(jar, 'POST', '/api/validations', { first_name: ['First/Given Name'] })).statusCode,
    ).toBe(200);
    expect((await api(jar, 'POST', '/api/validations', { made_up: ['x'] })).statusCode).toBe(400);
    expect((await api(jar, 'PUT', '/api/last-page', { last_page: '/education' })).statusCode).toBe(
      200,
    );
    expect((await api(jar, 'GET', '/api/profile')).json().last_page).toBe('/education');
    expect(
      (await api(jar, 'PUT', '/api/last-page', { last_page: 'https://evil.example' })).statusCode,
    ).toBe(400);
  });

  it('serves a prefilled answer set by token, without sensitive answers, until it expires', async () => {
    const token = 'prefill-token-for-tests-0123456789';
    await t.runtime.database.db.execute(sql`
      INSERT INTO temporary_answers (token_hash, answer, expires_at)
      VALUES (${hashToken(token)}, ${JSON.stringify({ first_name: 'Pat', ssn: '999-99-9999' })}::jsonb,
              ${new Date(NOW.getTime() + 60_000).toISOString()}::timestamptz)`);
    const res = await t.request({ method: 'GET', url: `/public/tmp?token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ answer: { first_name: 'Pat' } });
    expect((await t.request({ method: 'GET', url: '/public/tmp?token=wrong' })).statusCode).toBe(
      404,
    );
    t.clock.advance(120_000);
    const expired = await t.request({ method: 'GET', url: `/public/tmp?token=${token}` });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toBe(MESSAGES.temporaryAnswersGone);
  });

  it('requires a session for every application route', async () => {
    for (const [method, url] of [
      ['GET', '/api/profile'],
      ['PUT', '/api/answer'],
      ['POST', '/api/submit'],
      ['GET', '/api/tabs'],
      ['GET', '/api/add-another'],
    ] as const) {
      const res = await t.request({ method, url, body: method === 'GET' ? undefined : {} });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
