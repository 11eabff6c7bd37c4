// Signed events to the student system (issue #31), on both drivers: subscriptions made with the
// compiled CLI (`npm run cli -- webhooks …`) as an operator types them, real receivers on loopback
// (node:http), the real job queue, and the delivery log as an exporter reads it in the staff area.
// The signature is checked exactly as docs/webhooks.md tells a receiver to check it.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { StaffWebhooksResponse, WebhookDelivery } from '@admissions/api-contract';
import { COMPLETE_ANSWERS, NOW } from '../../../packages/form/test/fixtures/complete-answers';
import { startPgliteSocket } from '../src/platform/db/pglite-socket';
import { seal } from '../src/platform/lib/crypto';
import {
  WEBHOOK_MAX_ATTEMPTS,
  findRetryDelayMs,
  listWebhookSubscriptions,
  removeWebhookSubscription,
} from '../src/modules/webhooks';
import { WEBHOOK_HTTPS_ONLY } from '../src/modules/webhooks/webhook-targets';
import { cliNodeArgs } from './support/process-stack';
import { startLoopbackListener } from './support/loopback-listener';
import { enrolStaffMember } from './support/staff-enrolment';
import {
  TEST_PASSWORD,
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');

interface Received {
  headers: Record<string, string>;
  body: string;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
}

/** A receiver on 127.0.0.1 that keeps every request and answers as `answer` says. */
async function startReceiver(answer: (n: number, request: Received) => Promise<Answer> | Answer) {
  const requests: Received[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      const received = { headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      void Promise.resolve(answer(requests.length, received)).then(({ status, headers }) => {
        response.writeHead(status, headers);
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/hooks/admissions`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * docs/webhooks.md's verification snippet, as a receiver runs it: the raw body as received and
 * the three headers, checked by the `standardwebhooks` package (which also refuses a timestamp
 * more than five minutes from its own clock).
 */
function verifyAsDocumented(secret: string, request: Received) {
  const webhook = new Webhook(secret);
  return webhook.verify(request.body, {
    'webhook-id': request.headers['webhook-id'] ?? '',
    'webhook-timestamp': request.headers['webhook-timestamp'] ?? '',
    'webhook-signature': request.headers['webhook-signature'] ?? '',
  }) as { id: string; type: string; timestamp: string; data: { application_id: string } };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

it('retries for more than 24 hours: 15 attempts, waits doubling from the unit, then 480 units', () => {
  const base = 30_000;
  const waits = Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, (_, i) =>
    findRetryDelayMs(i + 1, base),
  );
  // After the 15th attempt there is none.
  expect(WEBHOOK_MAX_ATTEMPTS).toBe(15);
  expect(waits.at(-1)).toBeNull();
  expect(waits.slice(0, -1)).toEqual(
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 480, 480, 480, 480, 480].map((units) => units * base),
  );
  // docs/webhooks.md: the last attempt 24 h 15 min 30 s after the first.
  const total = waits.reduce<number>((sum, wait) => sum + (wait ?? 0), 0);
  expect(total).toBe(((24 * 60 + 15) * 60 + 30) * 1000);
});

describe.each(availableDrivers())('webhooks (%s)', (driver) => {
  let t: TestRuntime;
  let stopSocket: (() => Promise<void>) | undefined;
  let exporter: Record<string, string>;
  let counter = 0;

  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, cliNodeArgs(['webhooks', ...args]), {
      cwd: apiRoot,
      env: {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrl ?? '',
        SECRET_KEY: '',
        LOG_LEVEL: 'silent',
        WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
        ...env,
      },
    });
  const refusal = (args: string[], env: Record<string, string> = {}) =>
    cli(args, env).then(
      ({ stdout }) => {
        throw new Error(`expected the command to fail; it printed:\n${stdout}`);
      },
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  /** `webhooks add` as an operator runs it: the id and the secret it prints once. */
  async function subscribe(url: string, events: string): Promise<{ id: string; secret: string }> {
    const { stdout } = await cli(['add', '--url', url, '--events', events]);
    const id = /^Webhook subscription ([0-9a-f-]{36}) added: /m.exec(stdout)?.[1];
    const secret = /^(whsec_\S+)$/m.exec(stdout)?.[1];
    if (!id || !secret) throw new Error(`unexpected output:\n${stdout}`);
    return { id, secret };
  }

  /**
   * A new applicant's complete application, not yet submitted. The fixture is complete as of NOW,
   * so the applicant acts on that day; everything else runs at the real time (the receivers
   * compare the signature's timestamp with their own clock): see submit.
   */
  async function prepareApplication(): Promise<{
    jar: Record<string, string>;
    id: string;
    email: string;
  }> {
    t.clock.set(NOW);
    const email = `webhook${++counter}.${driver}@example.org`;
    const jar = await registerApplicant(t, email);
    const saved = await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: COMPLETE_ANSWERS,
      cookies: jar,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const result = await t.runtime.database.db.execute<{ id: string }>(
      sql`SELECT a.id FROM applications a JOIN users u ON u.id = a.user_id WHERE u.email = ${email}`,
    );
    return { jar, id: result.rows[0]!.id, email };
  }

  /** Submits on NOW, then brings the clock back to the real time for what follows. */
  async function submit(jar: Record<string, string>) {
    t.clock.set(NOW);
    const response = await t.request({ method: 'POST', url: '/api/submit', cookies: jar });
    t.clock.set(new Date());
    return response;
  }

  async function readLog(): Promise<StaffWebhooksResponse> {
    const response = await t.request({
      method: 'GET',
      url: '/staff/api/webhooks',
      cookies: exporter,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StaffWebhooksResponse>();
  }

  /** Polls the staff log until one of the subscription's deliveries satisfies `done`. */
  async function waitForDelivery(
    subscriptionId: string,
    done: (delivery: WebhookDelivery) => boolean,
  ): Promise<WebhookDelivery> {
    for (let i = 0; i < 600; i++) {
      const subscription = (await readLog()).subscriptions.find((s) => s.id === subscriptionId);
      const found = subscription?.recent.find(done);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no such delivery');
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver, {
      WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
      // The back-off's unit: 1 ms, so retries wait only for the worker's next poll.
      WEBHOOK_RETRY_BASE_MS: '1',
      WEBHOOK_TIMEOUT_MS: '5000',
    });
    if (t.runtime.database.pglite) {
      stopSocket = await startPgliteSocket(t.runtime.database.pglite, t.dataDir);
    }
    t.clock.set(new Date());
    exporter = (await enrolStaffMember(t, `exporter.${driver}@staff.example.edu`, 'exporter')).jar;
  }, 120_000);
  // A test that failed half-way leaves no subscription behind to receive the next one's events.
  afterEach(async () => {
    for (const subscription of await listWebhookSubscriptions(t.runtime.database.db)) {
      if (subscription.removedAt) continue;
      await removeWebhookSubscription(t.runtime.database.db, subscription.id, t.clock.now());
    }
  });
  afterAll(async () => {
    await stopSocket?.();
    await t?.close();
  });

  it('delivers application.submitted once, signed, after three 500s: four attempts in the log', async () => {
    // The receiver's clock is the real one, and the standard refuses a timestamp five minutes
    // off it: the attempts that count are made once submit has set the test's clock to now.
    const clockSet = deferred();
    const receiver = await startReceiver(async (n) => {
      if (n === 1) await clockSet.promise;
      return { status: n <= 3 ? 500 : 200 };
    });
    try {
      const { id: subscriptionId, secret } = await subscribe(receiver.url, 'application.submitted');
      const application = await prepareApplication();
      const submitted = await submit(application.jar);
      expect(submitted.statusCode, submitted.body).toBe(200);
      clockSet.resolve();

      const delivery = await waitForDelivery(
        subscriptionId,
        (d) => d.application_id === application.id && d.status !== 'pending',
      );
      expect(delivery).toMatchObject({
        type: 'application.submitted',
        status: 'delivered',
        attempts: 4,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
      });
      expect(delivery.delivered_at).not.toBeNull();

      // Four requests, one event: the same id, body and idempotency key on every attempt.
      expect(receiver.requests).toHaveLength(4);
      expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(
        new Set([delivery.id]),
      );
      expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
      const accepted = receiver.requests[3]!;
      expect(accepted.headers['content-type']).toBe('application/json');

      const event = verifyAsDocumented(secret, accepted);
      expect(event).toEqual({
        id: delivery.id,
        type: 'application.submitted',
        timestamp: NOW.toISOString(),
        data: { application_id: application.id },
      });
      expect(delivery.id).toMatch(/^msg_[0-9a-f]{32}$/);
      // Not the answers: the receiver reads them with its API key.
      for (const answer of [COMPLETE_ANSWERS.first_name, COMPLETE_ANSWERS.last_name]) {
        expect(accepted.body).not.toContain(answer);
      }
      // Another secret does not verify it.
      expect(() =>
        verifyAsDocumented(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, accepted),
      ).toThrow();

      // The staff log never shows the secret; the CLI's list counts what was sent.
      expect(JSON.stringify(await readLog())).not.toContain(secret.slice(6));
      const listed = (await cli(['list'])).stdout;
      expect(listed).toContain(
        `${subscriptionId}\t${receiver.url}\tapplication.submitted\tlive\tpending 0, delivered 1, failed 0`,
      );
      await cli(['remove', '--id', subscriptionId]);
    } finally {
      await receiver.close();
    }
  });

  it('does not follow a redirect: the attempt fails naming it, and its target gets nothing', async () => {
    const elsewhere = await startLoopbackListener();
    const receiver = await startReceiver(() => ({
      status: 302,
      headers: { location: `${elsewhere.base}/collect` },
    }));
    try {
      const { id: subscriptionId } = await subscribe(receiver.url, 'application.submitted');
      const application = await prepareApplication();
      expect((await submit(application.jar)).statusCode).toBe(200);

      // A second attempt started: the first one's outcome is in the log.
      const delivery = await waitForDelivery(
        subscriptionId,
        (d) => d.application_id === application.id && d.attempts >= 2,
      );
      expect(delivery.last_status_code).toBe(302);
      expect(delivery.last_error).toBe(
        `The receiver answered 302, a redirect to ${elsewhere.base}/collect: redirects are not followed.`,
      );
      expect(receiver.requests.length).toBeGreaterThanOrEqual(1);
      expect(elsewhere.connections()).toBe(0);

      // Removing the subscription stops its retries; the log keeps the delivery, failed.
      const removed = await cli(['remove', '--id', subscriptionId]);
      expect(removed.stdout).toMatch(
        new RegExp(`^Webhook subscription ${subscriptionId} removed; [01] pending deliver`),
      );
      const log = (await readLog()).subscriptions.find((s) => s.id === subscriptionId)!;
      expect(log.removed_at).not.toBeNull();
      const settled = await waitForDelivery(subscriptionId, (d) => d.status !== 'pending');
      expect(settled.status).toBe('failed');
      expect(elsewhere.connections()).toBe(0);
    } finally {
      await receiver.close();
      await elsewhere.close();
    }
  });

  it('gives an attempt WEBHOOK_TIMEOUT_MS: a receiver that does not answer fails it', async () => {
    const never = deferred();
    const receiver = await startReceiver(async () => {
      await never.promise;
      return { status: 200 };
    });
    try {
      const { id: subscriptionId } = await subscribe(receiver.url, 'application.submitted');
      const application = await prepareApplication();
      expect((await submit(application.jar)).statusCode).toBe(200);
      const delivery = await waitForDelivery(
        subscriptionId,
        (d) => d.application_id === application.id && d.last_error !== null,
      );
      expect(delivery).toMatchObject({
        status: 'pending',
        last_status_code: null,
        last_error: 'No answer within 5000 ms.',
      });
      await cli(['remove', '--id', subscriptionId]);
    } finally {
      never.resolve();
      await receiver.close();
    }
  });

  it('refuses a non-https target outside development, at `webhooks add` and before sending', async () => {
    const production = { WEBHOOK_ALLOW_LOOPBACK_HTTP: '' };
    const [plain, loopback, withFlag, credentials, unknownEvent] = await Promise.all([
      refusal(
        ['add', '--url', 'http://example.org/hook', '--events', 'application.submitted'],
        production,
      ),
      refusal(
        ['add', '--url', 'http://127.0.0.1:9/hook', '--events', 'application.submitted'],
        production,
      ),
      refusal(['add', '--url', 'http://example.org/hook', '--events', 'application.submitted']),
      refusal([
        'add',
        '--url',
        'https://user:pw@example.org/hook',
        '--events',
        'application.submitted',
      ]),
      refusal(['add', '--url', 'https://example.org/hook', '--events', 'application.admitted']),
    ]);
    for (const refused of [plain, loopback, withFlag]) {
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(WEBHOOK_HTTPS_ONLY);
    }
    expect(credentials.stderr).toContain('may not carry a user name or password');
    expect(unknownEvent.stderr).toContain(
      'Unknown event "application.admitted". --events takes a comma-separated list of application.submitted, checklist.item_received, application.updated_after_submit.',
    );
    const stored = await t.runtime.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE url LIKE '%example.org%'`,
    );
    expect(stored.rows[0]!.n).toBe(0);

    // A subscription that reached the table some other way (a development database copied to
    // production, say) is checked again before the attempt: nothing is sent, the delivery fails.
    const inserted = await t.runtime.database.db.execute<{ id: string }>(sql`
        INSERT INTO webhook_subscriptions (url, events, secret_sealed)
        VALUES (${'http://example.org/hook'}, ARRAY['application.submitted'],
          ${seal(t.runtime.secrets.encryptionKey, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)})
        RETURNING id`);
    const subscriptionId = inserted.rows[0]!.id;
    const application = await prepareApplication();
    expect((await submit(application.jar)).statusCode).toBe(200);
    const delivery = await waitForDelivery(subscriptionId, (d) => d.status !== 'pending');
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null });
    expect(delivery.last_error).toBe(`Not sent: ${WEBHOOK_HTTPS_ONLY}`);
    await cli(['remove', '--id', subscriptionId]);
  });

  it('records one event for 30 concurrent submits of one application', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const { id: subscriptionId } = await subscribe(receiver.url, 'application.submitted');
      const application = await prepareApplication();
      t.clock.set(NOW);
      const responses = await Promise.all(
        Array.from({ length: 30 }, () =>
          t.request({ method: 'POST', url: '/api/submit', cookies: application.jar }),
        ),
      );
      t.clock.set(new Date());
      expect(responses.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
      // Every submit has answered, so every transaction that could record an event has committed.
      const rows = await t.runtime.database.db.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM webhook_deliveries
        WHERE application_id = ${application.id} AND subscription_id = ${subscriptionId}`);
      expect(rows.rows[0]!.n).toBe(1);
      const delivery = await waitForDelivery(
        subscriptionId,
        (d) => d.application_id === application.id && d.status === 'delivered',
      );
      expect(delivery.attempts).toBe(1);
      const received = receiver.requests.filter((r) => r.body.includes(application.id));
      expect(received).toHaveLength(1);
      await cli(['remove', '--id', subscriptionId]);
    } finally {
      await receiver.close();
    }
  });

  it('tells of checklist items received and of a submitted application changed', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const { id: subscriptionId, secret } = await subscribe(
        receiver.url,
        'checklist.item_received,application.updated_after_submit',
      );
      const application = await prepareApplication();
      expect((await submit(application.jar)).statusCode).toBe(200);
      // The applicant's session is from NOW, months ago: a new one.
      const login = await t.request({
        method: 'POST',
        url: '/public/login',
        body: { username: application.email, password: TEST_PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
      const applicant = cookiesOf(login);
      const processor = await enrolStaffMember(
        t,
        `processor.${driver}@staff.example.edu`,
        'processor',
      );
      const events = async () =>
        (
          await t.runtime.database.db.execute<{ event_type: string }>(sql`
            SELECT event_type FROM webhook_deliveries
            WHERE application_id = ${application.id} ORDER BY created_at, event_type`)
        ).rows.map((r) => r.event_type);
      // The submission itself is not an event this subscription asked for.
      expect(await events()).toEqual([]);

      // The office asks for an item: the submitted application changed.
      const requested = await t.request({
        method: 'POST',
        url: `/staff/api/applications/${application.id}/requests`,
        body: { title: 'Official transcript', message: 'Please upload your final transcript.' },
        cookies: processor.jar,
      });
      expect(requested.statusCode, requested.body).toBe(200);
      expect(await events()).toEqual(['application.updated_after_submit']);

      // A recommender's typed letter: an item received, and a new document after submit.
      const added = await t.request({
        method: 'POST',
        url: '/api/recommenders',
        body: { type: 'counselor', name: 'Mary Somerville', email: 'mary@school.example.org' },
        cookies: applicant,
      });
      expect(added.statusCode, added.body).toBe(200);
      const invitation = await t.waitForMail('mary@school.example.org', /recommendation/);
      const token = /\/recommend\/([A-Za-z0-9_-]+)/.exec(invitation.text)![1]!;
      t.clock.advance(60_000);
      const letter = await t.request({
        method: 'POST',
        url: `/public/recommendations/${token}`,
        body: { known_years: 2, capacity: 'School counselor', letter_text: 'A fine student.' },
      });
      expect(letter.statusCode, letter.body).toBe(200);
      expect((await events()).slice(1)).toEqual([
        'application.updated_after_submit',
        'checklist.item_received',
      ]);

      // The office waives the item it asked for: no longer awaited.
      const checklist = requested.json<{ items: { id: string; kind: string }[] }>();
      const item = checklist.items.find((i) => i.kind === 'request')!;
      t.clock.advance(60_000);
      const waived = await t.request({
        method: 'POST',
        url: `/staff/api/applications/${application.id}/waivers`,
        body: { item: item.id },
        cookies: processor.jar,
      });
      expect(waived.statusCode, waived.body).toBe(200);
      expect((await events()).slice(3)).toEqual(['checklist.item_received']);

      // All four reach the receiver, each verifiable, each naming only the application.
      await waitForDelivery(subscriptionId, () => receiver.requests.length >= 4);
      const verified = receiver.requests.map((r) => verifyAsDocumented(secret, r));
      expect(verified.map((e) => e.data)).toEqual(
        Array(4).fill({ application_id: application.id }),
      );
      expect(new Set(verified.map((e) => e.id)).size).toBe(4);
      await cli(['remove', '--id', subscriptionId]);
    } finally {
      await receiver.close();
    }
  });
});
