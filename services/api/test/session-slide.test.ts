// The idle timer slides at most once a minute, so an autosave is one durable write (the answer),
// while the 15-minute rule stays exact to within that minute and a revoked session is refused
// at once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../src/modules/auth';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

describe.each(availableDrivers())('session idle timer (%s)', (driver) => {
  let t: TestRuntime;
  let n = 0;
  const freshEmail = () => `slide.${driver}.${++n}@example.org`;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const save = (jar: Record<string, string>, value: string) =>
    t.request({ method: 'PUT', url: '/api/answer', cookies: jar, body: { first_name: value } });

  async function lastSeenOf(email: string): Promise<number> {
    const rows = await t.runtime.database.db
      .select({ at: sessions.lastSeenAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, email));
    expect(rows).toHaveLength(1);
    return rows[0]!.at.getTime();
  }

  it('writes the idle timer at most once a minute while the applicant autosaves', async () => {
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    const loggedInAt = await lastSeenOf(email);

    t.clock.advance(30_000);
    expect((await save(jar, 'Ada')).statusCode).toBe(200);
    expect(await lastSeenOf(email)).toBe(loggedInAt);

    t.clock.advance(31_000);
    expect((await save(jar, 'Adah')).statusCode).toBe(200);
    expect(await lastSeenOf(email)).toBe(t.clock.now().getTime());
  });

  it('keeps an active applicant signed in and ends 15 minutes of silence, within a minute', async () => {
    const email = freshEmail();
    const jar = await registerApplicant(t, email);
    for (let i = 0; i < 24; i++) {
      t.clock.advance(50_000);
      expect((await save(jar, `Ada ${i}`)).statusCode).toBe(200);
    }
    t.clock.advance(14 * 60_000);
    expect((await save(jar, 'still here')).statusCode).toBe(200);
    // The timer written at most a minute before that save: 15 minutes and a second of silence
    // after the save is past the idle limit whatever the minute's phase.
    t.clock.advance(15 * 60_000 + 1000);
    expect((await save(jar, 'too late')).statusCode).toBe(401);
  });

  it('refuses a logged-out session at once, inside the minute the timer is not written', async () => {
    const jar = await registerApplicant(t, freshEmail());
    expect((await save(jar, 'Ada')).statusCode).toBe(200);
    const logout = await t.request({ method: 'GET', url: '/api/logout', cookies: jar });
    expect(logout.statusCode).toBe(200);
    expect((await save(jar, 'Ada again')).statusCode).toBe(401);
  });
});
