// GET /api/profile is assembled by the database and sent as it comes: the client must see exactly
// the documented shape — answers with the sealed ones opened, converted documents, every login
// in order as ISO 8601, the web status entries — whatever the driver.
import { Value } from '@sinclair/typebox/value';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileResponse } from '@admissions/api-contract';
import { documentAnswers } from '../src/modules/documents';
import { successfulLogins, users } from '../src/modules/auth';
import {
  TEST_PASSWORD,
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

describe.each(availableDrivers())('GET /api/profile (%s)', (driver) => {
  let t: TestRuntime;
  let n = 0;
  const freshEmail = () => `profile.${driver}.${++n}@example.org`;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const profileOf = (jar: Record<string, string>) =>
    t.request({ method: 'GET', url: '/api/profile', cookies: jar });

  it('answers a new applicant with an empty application in the documented shape', async () => {
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    const res = await profileOf(jar);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body: unknown = res.json();
    expect(Value.Check(ProfileResponse, body)).toBe(true);
    expect(body).toEqual({
      answer: {},
      document_answer: {},
      username: email,
      last_page: null,
      successful_login: [expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)],
      web_status: [],
    });
  });

  it('carries answers (sealed ones opened), documents, logins in order and the web status', async () => {
    const email = freshEmail();
    let jar = await registerApplicant(t, email);
    t.clock.advance(61_000);
    const again = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: email, password: TEST_PASSWORD },
    });
    jar = cookiesOf(again);
    const put = (url: string, body: unknown) =>
      t.request({ method: 'PUT', url, cookies: jar, body });
    expect(
      (
        await put('/api/answer', {
          first_name: 'Zoë "Zed"',
          last_name: 'Ørsted\\Łukasz',
          ssn: '123-45-6789',
          alien_registration_number: 'A123456789',
        })
      ).statusCode,
    ).toBe(200);
    expect((await put('/api/last-page', { last_page: '/education' })).statusCode).toBe(200);
    const status = await t.request({
      method: 'POST',
      url: '/api/web-status',
      cookies: jar,
      body: { web_status: 'started' },
    });
    expect(status.statusCode).toBe(200);

    const db = t.runtime.database.db;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await db.insert(documentAnswers).values({
      applicationId: user!.id,
      answerKey: 'personal_statement_doc',
      fileName: 'essay «final».pdf',
      fileSize: 12_345,
      pdfKey: 'documents/test/essay.pdf',
      pdfSize: 23_456,
    });
    const logins = await db
      .select({ at: successfulLogins.at })
      .from(successfulLogins)
      .where(eq(successfulLogins.userId, user!.id));

    const body: unknown = (await profileOf(jar)).json();
    expect(Value.Check(ProfileResponse, body)).toBe(true);
    expect(body).toEqual({
      answer: {
        first_name: 'Zoë "Zed"',
        last_name: 'Ørsted\\Łukasz',
        ssn: '123-45-6789',
        alien_registration_number: 'A123456789',
      },
      document_answer: {
        personal_statement_doc: { file_name: 'essay «final».pdf', file_size: 12_345 },
      },
      username: email,
      last_page: '/education',
      successful_login: logins.map((l) => l.at.toISOString()).sort(),
      web_status: [{ web_status: 'started' }],
    });
    expect((body as { successful_login: string[] }).successful_login).toHaveLength(2);
  });
});
