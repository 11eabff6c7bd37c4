import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEKEEPING_QUEUE } from '../src/modules/auth';
import { HOUSEKEEPING_CRON } from '../src/modules/auth/housekeeping';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const MINUTE = 60_000;

describe.each(availableDrivers())('housekeeping on %s', (driver) => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function countRows(
    table: 'sessions' | 'login_throttle' | 'address_throttle',
  ): Promise<number> {
    const { rows } = await t.runtime.database.executeSql(`SELECT count(*)::int AS n FROM ${table}`);
    return Number(rows[0]?.n);
  }

  it('is scheduled cluster-wide every ten minutes', async () => {
    const schedules = await t.runtime.queue.getSchedules();
    expect(schedules.find((s) => s.name === HOUSEKEEPING_QUEUE.name)?.cron).toBe(HOUSEKEEPING_CRON);
  });

  it('deletes sessions and login-failure counters that can never count again, and nothing live', async () => {
    const profile = (cookies: Record<string, string>) =>
      t.request({ method: 'GET', url: '/api/profile', cookies });
    const stale = await registerApplicant(t, `stale.${driver}@example.org`);
    const wrong = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: `forgetful.${driver}@example.org`, password: 'Not-The-Password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    // Past the 15-minute idle limit and the 15-minute memory of login failures.
    t.clock.advance(16 * MINUTE);
    const live = await registerApplicant(t, `live.${driver}@example.org`);
    const locked = `locked.${driver}@example.org`;
    for (let i = 0; i < 10; i++) {
      await t.request({
        method: 'POST',
        url: '/public/login',
        body: { username: locked, password: 'Not-The-Password-1' },
      });
    }
    expect(await countRows('sessions')).toBe(2);
    expect(await countRows('login_throttle')).toBe(2);

    await t.runtime.queue.send(HOUSEKEEPING_QUEUE.name, {});
    for (let i = 0; i < 200 && (await countRows('sessions')) > 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(await countRows('sessions')).toBe(1);
    // The fresh counter (the account just locked) stays; the forgotten one is gone.
    expect(await countRows('login_throttle')).toBe(1);
    expect((await profile(live)).statusCode).toBe(200);
    expect((await profile(stale)).statusCode).toBe(401);
    const stillLocked = await t.request({
      method: 'POST',
      url: '/public/login',
      body: { username: locked, password: 'Not-The-Password-1' },
    });
    expect(stillLocked.statusCode).toBe(429);
  });

  it('deletes per-address allowances untouched for a day, and keeps fresh ones', async () => {
    // A confirmation try takes from the address's allowance, known address or not.
    const tryCode = (username: string) =>
      t.request({ method: 'POST', url: '/public/confirm', body: { username, code: '123456' } });
    const before = await countRows('address_throttle');
    await tryCode(`quiet.${driver}@example.org`);
    t.clock.advance(25 * 60 * MINUTE);
    await tryCode(`busy.${driver}@example.org`);
    expect(await countRows('address_throttle')).toBe(before + 2);

    await t.runtime.queue.send(HOUSEKEEPING_QUEUE.name, {});
    for (let i = 0; i < 200 && (await countRows('address_throttle')) > 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await countRows('address_throttle')).toBe(1);
  });
});
