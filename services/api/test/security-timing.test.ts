import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availableDrivers,
  codeFrom,
  createTestRuntime,
  type TestRuntime,
} from './support/test-runtime';

/**
 * Enumeration by timing (issue #15): every public account route must take as long for an address
 * with an account as for one without (or confirmed as unconfirmed), since the bodies are already
 * identical. The two populations are sampled in interleaved pairs (A B, B A, A B …), so load from
 * the rest of the machine falls on both alike, and the statistic is the median of the pairs'
 * differences (a slow spell shifts both members of a pair, and cancels). The margin is the larger
 * of 1 ms and 15% of the faster median: an argon2 hash alone spreads by tens of ms on a loaded
 * 2-core machine, and when other work slows every request down the margin grows with it. A real difference shows in every round; noise rarely shows
 * three times in a row, so a route fails only when three rounds in a row exceed the margin.
 * The gaps before the fix are in BENCHMARKS.md.
 */
const ROUNDS = 3;
const MARGIN_MS = 1;
const MARGIN_SHARE = 0.15;

const PASSWORD = 'Cobalt-Lantern-River-58';
const OTHER_PASSWORD = 'Maple-Quartz-Harbor-73';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Comparison {
  a: number;
  b: number;
  /** Median of the pairs' differences (A − B). */
  gap: number;
  margin: number;
}

describe.each(availableDrivers())('response time does not tell accounts apart on %s', (driver) => {
  let t: TestRuntime;
  let counter = 0;
  const freshEmail = (tag: string) => `timing-${tag}${++counter}.${driver}@example.org`;
  const post = (url: string, body: unknown) => t.request({ method: 'POST', url, body });

  async function timed(send: () => Promise<{ statusCode: number }>): Promise<number> {
    const started = performance.now();
    const res = await send();
    const elapsed = performance.now() - started;
    expect(res.statusCode).toBeLessThan(500);
    return elapsed;
  }

  /**
   * Runs up to ROUNDS rounds of `pairs` interleaved samples and returns the last round's medians:
   * the first round within the margin ends it.
   */
  async function compare(
    pairs: number,
    sampleA: (i: number) => Promise<{ statusCode: number }>,
    sampleB: (i: number) => Promise<{ statusCode: number }>,
    before?: () => void | Promise<void>,
  ): Promise<Comparison> {
    // Warm-up: first calls compile code paths and prepare statements.
    for (let i = 0; i < 3; i++) {
      await before?.();
      await sampleA(-1 - i);
      await before?.();
      await sampleB(-1 - i);
    }
    let result: Comparison = { a: 0, b: 0, gap: 0, margin: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < pairs; i++) {
        const index = round * pairs + i;
        const runA = async () => {
          await before?.();
          a.push(await timed(() => sampleA(index)));
        };
        const runB = async () => {
          await before?.();
          b.push(await timed(() => sampleB(index)));
        };
        if (i % 2 === 0) {
          await runA();
          await runB();
        } else {
          await runB();
          await runA();
        }
      }
      const medianA = median(a);
      const medianB = median(b);
      const gap = median(a.map((value, i) => value - b[i]!));
      const margin = Math.max(MARGIN_MS, MARGIN_SHARE * Math.min(medianA, medianB));
      result = { a: medianA, b: medianB, gap, margin };
      if (Math.abs(gap) <= margin) break;
    }
    return result;
  }

  function expectAlike(route: string, { a, b, gap, margin }: Comparison): void {
    const report = `${route}: medians ${a.toFixed(2)} vs ${b.toFixed(2)} ms, paired gap ${gap.toFixed(2)} ms (margin ${margin.toFixed(2)} ms)`;
    process.stdout.write(`[${driver}] ${report}\n`);
    expect(Math.abs(gap), report).toBeLessThanOrEqual(margin);
  }

  async function createConfirmed(email: string): Promise<void> {
    await post('/public/signup', { username: email, password: PASSWORD });
    const code = codeFrom(await t.waitForMail(email, /confirmation code/));
    const res = await post('/public/confirm', { username: email, code });
    expect(res.statusCode).toBe(200);
  }

  /** Signs up `count` accounts and waits for their codes: unconfirmed, each with a live code. */
  async function createUnconfirmed(tag: string, count: number): Promise<string[]> {
    const emails = Array.from({ length: count }, () => freshEmail(tag));
    for (const email of emails)
      await post('/public/signup', { username: email, password: PASSWORD });
    for (const email of emails) await t.waitForMail(email, /confirmation code/);
    return emails;
  }

  let confirmed: string;
  let unconfirmed: string;

  beforeAll(async () => {
    // Limits high enough that the samples measure the routes, not the limits.
    t = await createTestRuntime(driver, {
      MAIL_PER_ADDRESS_BURST: '1000',
      MAIL_PER_ADDRESS_PER_HOUR: '1000',
    });
    confirmed = freshEmail('confirmed');
    await createConfirmed(confirmed);
    unconfirmed = (await createUnconfirmed('unconfirmed', 1))[0]!;
  });
  afterAll(async () => {
    await t.close();
  });

  it('login: an account with a wrong password vs an unknown address', async () => {
    const result = await compare(
      25,
      () => post('/public/login', { username: confirmed, password: OTHER_PASSWORD }),
      () => post('/public/login', { username: freshEmail('nobody'), password: OTHER_PASSWORD }),
      // Past the lockout's memory, so every sample is a verified attempt and not a refusal.
      () => t.clock.advance(16 * 60 * 1000),
    );
    expectAlike('login', result);
  });

  it('signup: an address with an account (confirmed or not) vs a new one', async () => {
    const result = await compare(
      25,
      (i) =>
        post('/public/signup', {
          username: i % 2 ? confirmed : unconfirmed,
          password: OTHER_PASSWORD,
        }),
      () => post('/public/signup', { username: freshEmail('new'), password: OTHER_PASSWORD }),
    );
    expectAlike('signup', result);
  });

  it('confirm: a wrong code for an unconfirmed account vs an unknown address', async () => {
    // Each account takes 4 wrong codes (a 5th would kill its code and change the work).
    const accounts = await createUnconfirmed('confirm', Math.ceil((ROUNDS * 30 + 6) / 4));
    const result = await compare(
      30,
      (i) =>
        post('/public/confirm', {
          username: accounts[Math.floor((i + 3) / 4)]!,
          code: '000000',
        }),
      () => post('/public/confirm', { username: freshEmail('nobody'), code: '000000' }),
    );
    expectAlike('confirm', result);
  });

  it('resend-confirm: an unconfirmed account vs an unknown address vs a confirmed one', async () => {
    const unknown = await compare(
      30,
      () => post('/public/resend-confirm', { username: unconfirmed }),
      () => post('/public/resend-confirm', { username: freshEmail('nobody') }),
    );
    expectAlike('resend-confirm (unconfirmed vs unknown)', unknown);
    const confirmedResult = await compare(
      30,
      () => post('/public/resend-confirm', { username: unconfirmed }),
      () => post('/public/resend-confirm', { username: confirmed }),
    );
    expectAlike('resend-confirm (unconfirmed vs confirmed)', confirmedResult);
  });

  it('forgot-password: an account vs an unknown address', async () => {
    const result = await compare(
      30,
      () => post('/public/forgot-password', { username: confirmed }),
      () => post('/public/forgot-password', { username: freshEmail('nobody') }),
    );
    expectAlike('forgot-password', result);
  });

  it('reset-password: an account with a wrong link vs an unknown address', async () => {
    const body = (username: string) => ({
      username,
      password: OTHER_PASSWORD,
      confirm_password: OTHER_PASSWORD,
      id: 'A'.repeat(43),
    });
    const result = await compare(
      25,
      () => post('/public/reset-password', body(confirmed)),
      () => post('/public/reset-password', body(freshEmail('nobody'))),
    );
    expectAlike('reset-password', result);
  });
});
