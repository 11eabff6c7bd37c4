// The version rule on every path that writes an application, on both databases: a change of
// content moves the version by one and stamps the time, other writes leave it alone, and nothing
// changes once the application is submitted. The autosave's prepared statements (plain and
// sealed) must obey it exactly as the query-built updates do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGES } from '@admissions/api-contract';
import { applications } from '../src/modules/application';
import { users } from '../src/modules/auth';
import { COMPLETE_ANSWERS, NOW } from '../../../packages/form/test/fixtures/complete-answers';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

describe.each(availableDrivers())('the version rule (%s)', (driver) => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('moves the version once per change of content, on every write path, until submitted', async () => {
    const email = `version.${driver}@example.org`;
    const jar = await registerApplicant(t, email);
    const api = (method: 'PUT' | 'POST', url: string, body?: unknown) =>
      t.request({ method, url, body, cookies: jar });
    const [user] = await t.runtime.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email));
    const state = async () => {
      const [row] = await t.runtime.database.db
        .select({
          version: applications.version,
          updatedAt: applications.updatedAt,
        })
        .from(applications)
        .where(eq(applications.userId, user!.id));
      return { version: row!.version, updatedAt: row!.updatedAt.getTime() };
    };
    let expected = await state();
    const expectContentChange = async (label: string) => {
      const now = t.clock.now().getTime();
      expected = { version: expected.version + 1, updatedAt: now };
      expect(await state(), label).toEqual(expected);
      t.clock.advance(1000);
    };

    expect((await api('PUT', '/api/answer', { city: 'Reno' })).statusCode).toBe(200);
    await expectContentChange('autosave');
    expect((await api('PUT', '/api/answer', { ssn: '111-22-3333' })).statusCode).toBe(200);
    await expectContentChange('autosave with a sealed answer');
    const addAnother = { button_id: 'parents', num_components: 2 };
    expect((await api('PUT', '/api/add-another', addAnother)).statusCode).toBe(200);
    await expectContentChange('add-another count');
    const tab = { tab_id: 'personal_statement', chosen_tab: 'essay' };
    expect((await api('PUT', '/api/tabs', tab)).statusCode).toBe(200);
    // The switch also clears the file question of the tab left, a write of its own.
    const switched = await state();
    expect(switched.version).toBeGreaterThan(expected.version);
    expect(switched.updatedAt).toBe(t.clock.now().getTime());
    expected = switched;

    // Not content: the version and its time stay.
    expect((await api('PUT', '/api/last-page', { last_page: '/about' })).statusCode).toBe(200);
    expect((await api('POST', '/api/validations', { city: ['City'] })).statusCode).toBe(200);
    expect((await api('POST', '/api/web-status', { web_status: 'validating' })).statusCode).toBe(
      200,
    );
    expect(await state()).toEqual(expected);

    expect((await api('PUT', '/api/answer', COMPLETE_ANSWERS)).statusCode).toBe(200);
    await expectContentChange('autosave of the whole set');
    const submitted = await api('POST', '/api/submit');
    expect(submitted.statusCode, submitted.body).toBe(200);
    await expectContentChange('submit');

    for (const [method, url, body] of [
      ['PUT', '/api/answer', { city: 'Elko' }],
      ['PUT', '/api/answer', { ssn: '444-55-6666' }],
      ['PUT', '/api/add-another', { button_id: 'parents', num_components: 1 }],
      ['PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'upload' }],
      ['PUT', '/api/last-page', { last_page: '/about' }],
      ['POST', '/api/web-status', { web_status: 'validating' }],
    ] as const) {
      const refused = await api(method, url, body);
      expect(refused.statusCode, `${url} ${JSON.stringify(body)}`).toBe(409);
      expect(refused.json().message).toBe(MESSAGES.alreadySubmitted);
    }
    expect(await state()).toEqual(expected);
    const profile = await t.request({ method: 'GET', url: '/api/profile', cookies: jar });
    expect(profile.json().answer).toMatchObject({
      city: COMPLETE_ANSWERS.city,
      ssn: COMPLETE_ANSWERS.ssn,
    });
  });
});
