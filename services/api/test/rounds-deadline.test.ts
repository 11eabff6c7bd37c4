// Issue 29: a round's deadline is enforced by the server, judged by when a request arrived.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { COMPLETE_ANSWERS, NOW } from '../../../packages/form/test/fixtures/complete-answers';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';
import { insertRound } from './support/rounds';

// The fixture is complete as of NOW (2026-06-15T12:00Z). Early Action's deadline is five minutes
// later, 7:05 AM in Chicago (CDT), with five minutes of grace: every step stays within a
// session's idle limit.
const EA_DEADLINE = new Date('2026-06-15T12:05:00Z');
const EA_CLOSES = new Date('2026-06-15T12:10:00Z');
const EA_CLOSED_MESSAGE =
  'The Early Action round closed on June 15, 2026 at 7:05 AM CDT. ' +
  'Your application in it can no longer be changed.';

describe.each(availableDrivers())('round deadlines on %s', (driver) => {
  let t: TestRuntime;
  let counter = 0;
  const freshEmail = () => `deadline${++counter}.${driver}@example.org`;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    await insertRound(t, {
      code: 'EA',
      name: 'Early Action',
      opensAt: '2026-06-01T00:00:00Z',
      deadline: EA_DEADLINE.toISOString(),
      graceMinutes: 5,
    });
    await insertRound(t, {
      code: 'RD',
      name: 'Regular Decision',
      opensAt: '2026-06-01T00:00:00Z',
      deadline: '2026-07-01T04:59:00Z',
      graceMinutes: 0,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const api = (
    jar: Record<string, string>,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
  ) => t.request({ method, url, body, cookies: jar });

  /** An applicant whose first application (in Early Action, open and closing first) is complete. */
  async function completeApplicant() {
    t.clock.set(NOW);
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    expect((await api(jar, 'PUT', '/api/answer', COMPLETE_ANSWERS)).statusCode).toBe(200);
    const applications = (await api(jar, 'GET', '/api/applications')).json();
    expect(applications.current).toBe('EA');
    return { email, jar };
  }

  it('takes a submit at the closing time − 1 s and refuses one at + 1 s with the round and its deadline', async () => {
    const before = await completeApplicant();
    const after = await completeApplicant();
    // Within the grace period, past the published deadline: still taken.
    t.clock.set(new Date(EA_DEADLINE.getTime() + 60_000));
    expect((await api(after.jar, 'PUT', '/api/answer', { preferred_name: 'Pat' })).statusCode).toBe(
      200,
    );

    t.clock.set(new Date(EA_CLOSES.getTime() - 1000));
    const accepted = await api(before.jar, 'POST', '/api/submit');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ message: MESSAGES.submitted });

    t.clock.set(new Date(EA_CLOSES.getTime() + 1000));
    const refused = await api(after.jar, 'POST', '/api/submit');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'ROUND_CLOSED', message: EA_CLOSED_MESSAGE });

    // Every write of the unsubmitted application answers the same, and changes nothing.
    const writes: ['PUT' | 'POST' | 'DELETE', string, unknown][] = [
      ['PUT', '/api/answer', { first_name: 'Changed' }],
      ['PUT', '/api/last-page', { last_page: '/about' }],
      ['POST', '/api/web-status', { web_status: 'validating' }],
      ['POST', '/api/validations', { first_name: ['First/Given Name'] }],
      ['PUT', '/api/add-another', { button_id: 'parents', num_components: 2 }],
      ['PUT', '/api/tabs', { tab_id: 'personal_statement', chosen_tab: 'upload' }],
      ['POST', '/api/presigned-url', { answer_key: 'honors_statement_doc' }],
      [
        'POST',
        '/api/pdf/document-answer/honors_statement_doc',
        { file_key: 'uploads/x', file_name: 'a.pdf' },
      ],
      ['DELETE', '/api/pdf/document-answer/honors_statement_doc', undefined],
      ['DELETE', '/api/document-answer/honors_statement_doc', undefined],
    ];
    for (const [method, url, body] of writes) {
      const response = await api(after.jar, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(409);
      expect(response.json().message, `${method} ${url}`).toBe(EA_CLOSED_MESSAGE);
    }
    const profile = (await api(after.jar, 'GET', '/api/profile')).json();
    expect(profile.answer.first_name).toBe(COMPLETE_ANSWERS.first_name);
    expect(profile.answer.preferred_name).toBe('Pat');
    expect(profile.last_page ?? null).not.toBe('/about');

    // The submitted application keeps answering as a submitted one does.
    const again = await api(before.jar, 'PUT', '/api/answer', { first_name: 'Changed' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MESSAGES.alreadySubmitted);
    expect((await api(before.jar, 'POST', '/api/submit')).statusCode).toBe(200);
  });

  it('judges a submit by its receipt: received before the close and finished after, it is taken at the receipt time', async () => {
    const { jar } = await completeApplicant();
    const received = new Date(EA_CLOSES.getTime() - 1000);
    const finished = new Date(EA_CLOSES.getTime() + 2 * 60_000);
    t.clock.set(received);
    // The first reading of the clock is the request's receipt (the first hook); every later one,
    // the lock waits and the writes, happens after the round has closed.
    const now = t.clock.now;
    t.clock.now = () => {
      const at = now();
      t.clock.set(finished);
      t.clock.now = now;
      return at;
    };
    try {
      const response = await api(jar, 'POST', '/api/submit');
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      t.clock.now = now;
    }
    expect(t.clock.now()).toEqual(finished);
    const listed = (await api(jar, 'GET', '/api/applications')).json();
    expect(listed.applications).toEqual([
      { round: 'EA', status: 'submitted', submitted_at: received.toISOString() },
    ]);
  });

  it('respects a deadline moved while the application is open: the write reads the round it guards', async () => {
    const { jar } = await completeApplicant();
    t.clock.set(new Date(EA_DEADLINE.getTime() - 5 * 60_000));
    // Early Action's deadline moves an hour into the past: the next save is refused at once.
    await t.runtime.database.executeSql(`UPDATE rounds SET deadline = $1 WHERE code = 'EA'`, [
      new Date(EA_DEADLINE.getTime() - 65 * 60_000).toISOString(),
    ]);
    try {
      const refused = await api(jar, 'PUT', '/api/answer', { preferred_name: 'Late' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'The Early Action round closed on June 15, 2026 at 6:00 AM CDT. ' +
          'Your application in it can no longer be changed.',
      );
    } finally {
      await t.runtime.database.executeSql(`UPDATE rounds SET deadline = $1 WHERE code = 'EA'`, [
        EA_DEADLINE.toISOString(),
      ]);
    }
    expect((await api(jar, 'PUT', '/api/answer', { preferred_name: 'Early' })).statusCode).toBe(
      200,
    );
  });
});
