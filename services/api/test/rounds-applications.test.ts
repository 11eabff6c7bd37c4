// Issue 29: an applicant's applications, one per round (GET /api/applications, PUT /api/application).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICATION_DEFINITION,
  PREFILL_REFUSED_ANSWER_KEYS,
  SENSITIVE_ANSWER_KEYS,
  compileDefinition,
} from '@admissions/form';
import { COMPLETE_ANSWERS, NOW } from '../../../packages/form/test/fixtures/complete-answers';
import {
  TEST_PASSWORD,
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';
import { insertRound } from './support/rounds';

/** The definition's own roles: a question of type file, and the keys its answers own. */
function isFileAnswer(key: string): boolean {
  return (
    compileDefinition(APPLICATION_DEFINITION).byAnswerKey.get(key)?.entry.question.type === 'file'
  );
}

describe.each(availableDrivers())("an applicant's applications on %s", (driver) => {
  let t: TestRuntime;
  let counter = 0;
  const freshEmail = () => `rounds${++counter}.${driver}@example.org`;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    t.clock.set(NOW);
    // Early Action closes first, so a new applicant starts in it.
    await insertRound(t, {
      code: 'EA',
      name: 'Early Action',
      opensAt: '2026-06-01T00:00:00Z',
      deadline: '2026-07-01T04:59:00Z',
    });
    await insertRound(t, {
      code: 'RD',
      name: 'Regular Decision',
      opensAt: '2026-06-01T00:00:00Z',
      deadline: '2026-09-01T04:59:00Z',
    });
    await insertRound(t, {
      code: 'SP',
      name: 'Spring',
      opensAt: '2026-08-01T05:00:00Z',
      deadline: '2026-12-01T05:59:00Z',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const api = (
    jar: Record<string, string>,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    body?: unknown,
  ) => t.request({ method, url, body, cookies: jar });

  const countApplications = async (email: string, round?: string) => {
    const { rows } = await t.runtime.database.executeSql(
      `SELECT count(*)::int AS n FROM applications a JOIN users u ON u.id = a.user_id
        WHERE u.email = $1 AND ($2::text IS NULL OR a.round_code = $2)`,
      [email, round ?? null],
    );
    return Number(rows[0]?.n);
  };

  it('keeps each application of an applicant to its own answers and documents', async () => {
    t.clock.set(NOW);
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    const listed = (await api(jar, 'GET', '/api/applications')).json();
    expect(listed.current).toBe('EA');
    expect(listed.time_zone).toBe('America/Chicago');
    expect(listed.rounds.map((r: { code: string }) => r.code)).toEqual([
      'EA',
      'RD',
      'SP',
      'DEFAULT',
    ]);
    expect(listed.rounds[0]).toEqual({
      code: 'EA',
      name: 'Early Action',
      entry_term: '',
      opens_at: '2026-06-01T00:00:00.000Z',
      deadline: '2026-07-01T04:59:00.000Z',
      closes_at: '2026-07-01T04:59:00.000Z',
      open: true,
    });
    await api(jar, 'PUT', '/api/answer', { first_name: 'Early', ssn: '123-45-6789' });
    // A converted document of the Early Action application (the conversion is the documents
    // tests' subject; here it is a row and a stored file).
    const { rows } = await t.runtime.database.executeSql(
      `SELECT a.id FROM applications a JOIN users u ON u.id = a.user_id WHERE u.email = $1`,
      [email],
    );
    const earlyId = String(rows[0]?.id);
    await t.runtime.database.executeSql(
      `INSERT INTO document_answers (application_id, answer_key, file_name, file_size, pdf_key, pdf_size)
       VALUES ($1, 'honors_statement_doc', 'honors.pdf', 1234, 'documents/x/honors.pdf', 999)`,
      [earlyId],
    );
    const earlyLink = (
      await api(jar, 'POST', '/api/presigned-url', { answer_key: 'honors_statement_doc' })
    ).json();

    const chosen = await api(jar, 'PUT', '/api/application', { round: 'RD' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().current).toBe('RD');
    expect(chosen.json().applications.map((a: { round: string }) => a.round)).toEqual(['RD', 'EA']);
    const regular = (await api(jar, 'GET', '/api/profile')).json();
    expect(regular.answer).toEqual({});
    expect(regular.document_answer).toEqual({});
    expect((await api(jar, 'GET', '/api/document-answer')).json()).toEqual({});
    await api(jar, 'PUT', '/api/answer', { first_name: 'Regular' });
    const regularLink = (
      await api(jar, 'POST', '/api/presigned-url', { answer_key: 'honors_statement_doc' })
    ).json();
    // Upload keys are the application's: the two applications never share a folder.
    expect(earlyLink.fields.key).toMatch(new RegExp(`^uploads/${earlyId}/honors_statement_doc/`));
    expect(regularLink.fields.key).toMatch(/^uploads\/[0-9a-f-]{36}\/honors_statement_doc\//);
    expect(regularLink.fields.key.split('/')[1]).not.toBe(earlyId);

    // Back to Early Action: its answers and document, not Regular Decision's.
    expect((await api(jar, 'PUT', '/api/application', { round: 'EA' })).json().current).toBe('EA');
    const early = (await api(jar, 'GET', '/api/profile')).json();
    expect(early.answer).toEqual({ first_name: 'Early', ssn: '123-45-6789' });
    expect(early.document_answer).toEqual({
      honors_statement_doc: { file_name: 'honors.pdf', file_size: 1234 },
    });
    expect((await api(jar, 'GET', '/api/document-answer')).json()).toEqual({
      honors_statement_doc: { file_name: 'honors.pdf', file_size: 1234 },
    });
    expect(await countApplications(email)).toBe(2);
  });

  it('starts from the last application: every answer but the sensitive, disciplinary and document ones', async () => {
    t.clock.set(NOW);
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    expect((await api(jar, 'PUT', '/api/answer', COMPLETE_ANSWERS)).statusCode).toBe(200);
    await api(jar, 'PUT', '/api/add-another', { button_id: 'parents', num_components: 2 });
    await api(jar, 'PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'essay' });
    expect((await api(jar, 'POST', '/api/submit')).statusCode).toBe(200);
    const source = (await api(jar, 'GET', '/api/profile')).json().answer as Record<string, string>;
    // The source holds answers of every excluded role, so the test means something.
    expect(Object.keys(source).some((k) => SENSITIVE_ANSWER_KEYS.includes(k))).toBe(true);
    expect(
      Object.keys(source).some(
        (k) => PREFILL_REFUSED_ANSWER_KEYS.includes(k) && !SENSITIVE_ANSWER_KEYS.includes(k),
      ),
    ).toBe(true);
    expect(Object.keys(source).some(isFileAnswer)).toBe(true);

    const started = await api(jar, 'PUT', '/api/application', {
      round: 'RD',
      copy_from_last: true,
    });
    expect(started.statusCode, started.body).toBe(200);
    const copy = (await api(jar, 'GET', '/api/profile')).json();
    const expected = Object.fromEntries(
      Object.entries(source).filter(
        ([key]) => !PREFILL_REFUSED_ANSWER_KEYS.includes(key) && !isFileAnswer(key),
      ),
    );
    expect(copy.answer).toEqual(expected);
    expect(copy.document_answer).toEqual({});
    expect(copy.web_status).toEqual([]);
    expect((await api(jar, 'GET', '/api/add-another')).json()).toMatchObject({ parents: 2 });
    expect((await api(jar, 'GET', '/api/tabs')).json()).toMatchObject({
      personal_statement: 'essay',
    });
    // The copy is open; the old application stays submitted and read-only.
    expect((await api(jar, 'PUT', '/api/answer', { preferred_name: 'Again' })).statusCode).toBe(
      200,
    );
    await api(jar, 'PUT', '/api/application', { round: 'EA' });
    const old = await api(jar, 'PUT', '/api/answer', { preferred_name: 'Again' });
    expect(old.statusCode).toBe(409);
    expect(old.json().code).toBe('ALREADY_SUBMITTED');
    expect((await api(jar, 'GET', '/api/profile')).json().answer).toEqual(source);
  });

  it('refuses a round that is not open yet, an unknown one, and a new one after it closed', async () => {
    t.clock.set(NOW);
    const email = freshEmail();
    let jar = await registerApplicant(t, email);
    const early = await api(jar, 'PUT', '/api/application', { round: 'SP' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      code: 'ROUND_NOT_OPEN',
      message:
        'The Spring round opens on August 1, 2026 at 12:00 AM CDT. You can start an application in it then.',
    });
    const unknown = await api(jar, 'PUT', '/api/application', { round: 'XYZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      code: 'ROUND_NOT_FOUND',
      message: 'There is no admission round with the code "XYZ".',
    });
    // Past Early Action's close: choosing the existing one is allowed (it reads only); a new
    // applicant's first application starts in the open round closing first.
    t.clock.set(new Date('2026-07-01T05:00:00Z'));
    const login = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: email, password: TEST_PASSWORD },
    });
    jar = cookiesOf(login);
    const again = await api(jar, 'PUT', '/api/application', { round: 'EA' });
    expect(again.statusCode).toBe(200);
    const late = await registerApplicant(t, freshEmail());
    expect((await api(late, 'GET', '/api/applications')).json().current).toBe('RD');
    const closed = await api(late, 'PUT', '/api/application', { round: 'EA' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe(
      'The Early Action round closed on June 30, 2026 at 11:59 PM CDT. ' +
        'Your application in it can no longer be changed.',
    );
  });

  it('makes one application of 30 concurrent first requests, and one of 30 concurrent starts of a round', async () => {
    t.clock.set(NOW);
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    // An account with no application yet (as one confirmed before applications existed).
    await t.runtime.database.executeSql(
      `DELETE FROM applications a USING users u WHERE u.id = a.user_id AND u.email = $1`,
      [email],
    );
    const first = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? api(jar, 'GET', '/api/profile')
          : api(jar, 'PUT', '/api/answer', { [`first_name`]: 'Burst' }),
      ),
    );
    expect(first.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    expect(await countApplications(email)).toBe(1);

    const starts = await Promise.all(
      Array.from({ length: 30 }, () =>
        api(jar, 'PUT', '/api/application', { round: 'RD', copy_from_last: true }),
      ),
    );
    expect(starts.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    expect(await countApplications(email, 'RD')).toBe(1);
    expect(await countApplications(email)).toBe(2);
    expect((await api(jar, 'GET', '/api/profile')).json().answer).toEqual({ first_name: 'Burst' });
  });
});
