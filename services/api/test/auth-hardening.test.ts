import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import {
  availableDrivers,
  codeFrom,
  cookiesOf,
  countMail,
  createTestRuntime,
  resetIdFrom,
  type TestRuntime,
} from './support/test-runtime';

const OWNER_PASSWORD = 'Cobalt-Lantern-River-58';
const OTHER_PASSWORD = 'Maple-Quartz-Harbor-73';
const THIRD_PASSWORD = 'Violet-Anchor-Meadow-91';
/** The default of MAIL_PER_ADDRESS_BURST: account e-mails one address gets at once. */
const MAIL_BURST = 6;

describe.each(availableDrivers())('account hardening on %s (issue #15)', (driver) => {
  let t: TestRuntime;
  let counter = 0;
  const freshEmail = () => `hardening${++counter}.${driver}@example.org`;
  const post = (url: string, body: unknown) => t.request({ method: 'POST', url, body });
  const login = (username: string, password: string) =>
    post('/public/login', { username, password });
  /** A confirmation sent by a browser holding `cookies` (its sign-up cookie). */
  const confirmFrom = (cookies: Record<string, string>, username: string, code: string) =>
    t.request({ method: 'POST', url: '/public/confirm', body: { username, code }, cookies });

  /** Every account e-mail queued so far has been sent (or silently dropped by the limits). */
  async function waitForMailQueue(): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const { rows } = await t.runtime.database.executeSql(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'send-email' AND state < 'completed'`,
        [],
      );
      if (rows[0]?.n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the mail queue did not drain');
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a second sign-up on an unconfirmed address leaves the owner’s password', async () => {
    const email = freshEmail();
    // The owner's browser keeps the sign-up cookie, and sends it with the confirmation.
    const ownerBrowser = cookiesOf(
      await post('/public/signup', { username: email, password: OWNER_PASSWORD }),
    );
    await t.waitForMail(email, /confirmation code/);
    // Someone else signs up with the owner's address and another password.
    const second = await post('/public/signup', { username: email, password: OTHER_PASSWORD });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ message: MESSAGES.signupSent });
    // The owner confirms with the newest code they received…
    const newest = codeFrom(await t.waitForMail(email, /confirmation code/));
    const confirmed = await confirmFrom(ownerBrowser, email, newest);
    expect(confirmed.json()).toEqual({ message: MESSAGES.confirmed });
    // …and logs in with their own password; the other one opens nothing.
    expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  describe('pre-hijack: someone signs up first with the owner’s address', () => {
    /** The attacker signs up with their password; the owner, later, with theirs. */
    async function signUpAttackerThenOwner(email: string) {
      await post('/public/signup', { username: email, password: OTHER_PASSWORD });
      const attackerMail = await t.waitForMail(email, /confirmation code/);
      const ownerBrowser = cookiesOf(
        await post('/public/signup', { username: email, password: OWNER_PASSWORD }),
      );
      const ownerMail = await t.waitForMail(email, /confirmation code/);
      return { attackerCode: codeFrom(attackerMail), ownerCode: codeFrom(ownerMail), ownerBrowser };
    }

    it('the owner confirms with the newest code: their password works, the attacker’s does not', async () => {
      const email = freshEmail();
      const { ownerCode, ownerBrowser } = await signUpAttackerThenOwner(email);
      const confirmed = await confirmFrom(ownerBrowser, email, ownerCode);
      expect(confirmed.json()).toEqual({ message: MESSAGES.confirmed });
      expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(401);
      expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
    });

    it('the owner confirms with the code of the attacker’s e-mail: the owner’s password, not the attacker’s', async () => {
      const email = freshEmail();
      const { attackerCode, ownerBrowser } = await signUpAttackerThenOwner(email);
      const confirmed = await confirmFrom(ownerBrowser, email, attackerCode);
      expect(confirmed.json()).toEqual({ message: MESSAGES.confirmed });
      expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(401);
      expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
    });

    it('confirmed from a browser that made no sign-up: confirmed without a password until a reset', async () => {
      const email = freshEmail();
      const { attackerCode } = await signUpAttackerThenOwner(email);
      // The code proves the mailbox, but nothing says which of the two sign-ups was the owner's.
      const confirmed = await post('/public/confirm', { username: email, code: attackerCode });
      expect(confirmed.json()).toEqual({ message: MESSAGES.confirmed });
      expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(401);
      expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(401);
      // "Forgot password?" sets one; the e-mailed link proves the mailbox.
      await post('/public/forgot-password', { username: email });
      const { id } = resetIdFrom(await t.waitForMail(email, /Reset your/));
      const reset = await post('/public/reset-password', {
        username: email,
        password: THIRD_PASSWORD,
        confirm_password: THIRD_PASSWORD,
        id,
      });
      expect(reset.json()).toEqual({ message: MESSAGES.resetDone });
      expect((await login(email, THIRD_PASSWORD)).statusCode).toBe(200);
      expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(401);
    });
  });

  it('a sign-up on a confirmed address leaves its password and only tells the owner', async () => {
    const email = freshEmail();
    await post('/public/signup', { username: email, password: OWNER_PASSWORD });
    const code = codeFrom(await t.waitForMail(email, /confirmation code/));
    await post('/public/confirm', { username: email, code });
    const again = await post('/public/signup', { username: email, password: OTHER_PASSWORD });
    expect(again.json()).toEqual({ message: MESSAGES.signupSent });
    expect((await t.waitForMail(email, /tried to create/)).text).toMatch(/already have one/);
    expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it('a resend e-mails the live code again instead of killing it', async () => {
    const email = freshEmail();
    await post('/public/signup', { username: email, password: OWNER_PASSWORD });
    const first = codeFrom(await t.waitForMail(email, /confirmation code/));
    for (let i = 0; i < 3; i++) {
      const res = await post('/public/resend-confirm', { username: email });
      expect(res.json()).toEqual({ message: MESSAGES.resendSent });
      expect(codeFrom(await t.waitForMail(email, /confirmation code/))).toBe(first);
    }
    // The code in the first e-mail still works.
    const confirmed = await post('/public/confirm', { username: email, code: first });
    expect(confirmed.json()).toEqual({ message: MESSAGES.confirmed });
  });

  it('a dead code (5 wrong tries) is replaced by the next resend', async () => {
    const email = freshEmail();
    await post('/public/signup', { username: email, password: OWNER_PASSWORD });
    const first = codeFrom(await t.waitForMail(email, /confirmation code/));
    const wrong = first === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) await post('/public/confirm', { username: email, code: wrong });
    await post('/public/resend-confirm', { username: email });
    const second = codeFrom(await t.waitForMail(email, /confirmation code/));
    const confirmed = await post('/public/confirm', { username: email, code: second });
    expect(confirmed.json()).toEqual({ message: MESSAGES.confirmed });
  });

  it('sends one address a handful of account e-mails however many requests ask', async () => {
    const email = freshEmail();
    await post('/public/signup', { username: email, password: OWNER_PASSWORD });
    const code = codeFrom(await t.waitForMail(email, /confirmation code/));
    await post('/public/confirm', { username: email, code });
    // 20 anonymous requests within a moment: each gets the usual answer…
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/public/forgot-password', { username: email })),
    );
    for (const res of answers) expect(res.json()).toEqual({ message: MESSAGES.forgotSent });
    await waitForMailQueue();
    // …but the mailbox gets the burst (the confirmation code counted as one), not 20.
    expect(countMail(t, email, /Reset your/)).toBe(MAIL_BURST - 1);
    // A sign-up on the address counts against the same allowance.
    await post('/public/signup', { username: email, password: OTHER_PASSWORD });
    await waitForMailQueue();
    expect(countMail(t, email, /tried to create/)).toBe(0);
    // An hour later the address can receive mail again.
    t.clock.advance(60 * 60 * 1000);
    await post('/public/forgot-password', { username: email });
    await t.waitForMail(email, /Reset your/);
  });

  it('counts each login attempt before verifying it: a burst gets 5 tries, and 1 after the lock', async () => {
    const email = freshEmail();
    await post('/public/signup', { username: email, password: OWNER_PASSWORD });
    const code = codeFrom(await t.waitForMail(email, /confirmation code/));
    await post('/public/confirm', { username: email, code });
    const burst = async (size: number) => {
      const answers = await Promise.all(
        Array.from({ length: size }, (_, i) => login(email, `${OWNER_PASSWORD}-wrong-${i}`)),
      );
      const verified = answers.filter((res) => res.statusCode === 401).length;
      const locked = answers.filter((res) => res.statusCode === 429).length;
      expect(verified + locked).toBe(size);
      return verified;
    };
    // A 401 means the password was verified; a 429 means it was refused unseen.
    expect(await burst(30)).toBe(5);
    // When the lock (1 s after the 5th failure) runs out, the next burst gets one try.
    t.clock.advance(1001);
    expect(await burst(10)).toBe(1);
    t.clock.advance(2001);
    expect(await burst(10)).toBe(1);
    // The owner still gets in once the lock has passed.
    t.clock.advance(4001);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it('a burst of confirmation codes gets 5 tries; the right code works once', async () => {
    const email = freshEmail();
    await post('/public/signup', { username: email, password: OWNER_PASSWORD });
    const code = codeFrom(await t.waitForMail(email, /confirmation code/));
    // 29 wrong codes, then the right one: the right one comes after the 5th try, so it is refused.
    const guesses = Array.from({ length: 29 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(
      [...guesses, code].map((guess) => post('/public/confirm', { username: email, code: guess })),
    );
    for (const res of answers) expect(res.json().message).toBe(MESSAGES.codeRejected);
    // The code is dead; a resend brings a new one, and a burst of it confirms exactly once.
    await post('/public/resend-confirm', { username: email });
    const fresh = codeFrom(await t.waitForMail(email, /confirmation code/));
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => post('/public/confirm', { username: email, code: fresh })),
    );
    expect(burst.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect((await login(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });
});
