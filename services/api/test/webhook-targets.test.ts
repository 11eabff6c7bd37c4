// Where a webhook may connect (issue #31, docs/webhooks.md "Where a webhook may go"): the address
// a delivery resolves its host to is judged before a connection is opened. A listener on loopback
// counts connections: a delivery refused by address must never reach it, and the same delivery
// with loopback allowed does (the guard, not the listener, is what stops it). The command-line
// refusals of addresses written in the URL run through the compiled CLI.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhookEvent } from '../src/modules/webhooks/webhook-jobs';
import { checkWebhookTarget } from '../src/modules/webhooks/webhook-targets';
import type { WebhookConfig } from '../src/platform/config';
import { cliNodeArgs } from './support/process-stack';
import { startLoopbackListener, type LoopbackListener } from './support/loopback-listener';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');

const PRODUCTION: WebhookConfig = {
  allowLoopbackHttp: false,
  allowPrivateNetworks: false,
  timeoutMs: 5_000,
  retryBaseMs: 30_000,
};
const BODY = '{"type":"application.submitted"}';
const HEADERS = { 'content-type': 'application/json' };

describe('webhook targets', () => {
  let listener: LoopbackListener;
  let port: string;
  beforeAll(async () => {
    listener = await startLoopbackListener();
    port = new URL(listener.base).port;
  });
  afterAll(() => listener.close());

  it('does not connect to a name that resolves to this machine, unless loopback is allowed', async () => {
    const url = new URL(`https://localhost:${port}/hook`);
    // The URL passes the add-time check: the host is a name, judged when it is resolved.
    expect(checkWebhookTarget(url.href, PRODUCTION).href).toBe(url.href);

    const refused = await postWebhookEvent(url, BODY, HEADERS, PRODUCTION);
    expect(refused).toEqual({
      delivered: false,
      statusCode: null,
      error:
        'Not sent: The webhook host localhost resolves to 127.0.0.1, an address of this machine: ' +
        'webhooks reach it only in development, with WEBHOOK_ALLOW_LOOPBACK_HTTP=true.',
    });
    expect(listener.connections()).toBe(0);

    // Private networks allowed is not loopback allowed.
    const stillRefused = await postWebhookEvent(url, BODY, HEADERS, {
      ...PRODUCTION,
      allowPrivateNetworks: true,
    });
    expect(stillRefused.error).toMatch(
      /^Not sent: The webhook host localhost resolves to 127\.0\.0\.1/,
    );
    expect(listener.connections()).toBe(0);

    // Allowed, the same delivery connects (the listener hangs up: no TLS answer).
    const allowed = await postWebhookEvent(url, BODY, HEADERS, {
      ...PRODUCTION,
      allowLoopbackHttp: true,
    });
    expect(allowed.delivered).toBe(false);
    expect(allowed.error).toMatch(/^Could not connect \(/);
    expect(listener.connections()).toBe(1);
  });

  it('judges an address written in the URL at once, IPv4 written as IPv6 included', () => {
    const refusal = (url: string, config: WebhookConfig = PRODUCTION) => {
      try {
        checkWebhookTarget(url, config);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    const loopback =
      /^The webhook host (127\.0\.0\.5|::1|::ffff:127\.0\.0\.1|::ffff:7f00:1) is an address of this machine/;
    expect(refusal('https://127.0.0.5/hook')).toMatch(loopback);
    expect(refusal('https://[::1]/hook')).toMatch(loopback);
    expect(refusal('https://[::ffff:127.0.0.1]/hook')).toMatch(loopback);
    const metadata = refusal('https://169.254.169.254/latest/meta-data', {
      ...PRODUCTION,
      allowLoopbackHttp: true,
      allowPrivateNetworks: true,
    });
    expect(metadata).toBe(
      'The webhook host 169.254.169.254 is not a public address (link-local, multicast or reserved): webhooks are never sent there.',
    );
    for (const inside of [
      'https://10.20.30.40/hook',
      'https://192.168.1.9/hook',
      'https://[fd00::7]/hook',
    ]) {
      expect(refusal(inside)).toMatch(
        /is an address of a private network: set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/,
      );
      expect(refusal(inside, { ...PRODUCTION, allowPrivateNetworks: true })).toBe('accepted');
    }
    // IPv4-compatible IPv6 (::a.b.c.d): "unicast" to ipaddr.js, public to nobody.
    for (const compatible of [
      'https://[::127.0.0.1]/hook',
      'https://[::7f00:1]/hook',
      'https://[::a00:1]/hook',
    ]) {
      expect(refusal(compatible)).toMatch(/is not a public address/);
    }
    expect(refusal('https://93.184.215.14/hook')).toBe('accepted');
    expect(refusal('https://[2606:4700::1111]/hook')).toBe('accepted');
  });

  it('`webhooks add` refuses an inside address, and a link-local one even where private networks are allowed', async () => {
    const cli = (args: string[], env: Record<string, string>) =>
      run(process.execPath, cliNodeArgs(['webhooks', ...args]), {
        cwd: apiRoot,
        // Refused before the database is opened: no database is given.
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', LOG_LEVEL: 'silent', ...env },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
    const refused = await cli(
      ['add', '--url', 'https://169.254.169.254/hook', '--events', 'application.submitted'],
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'The webhook host 169.254.169.254 is not a public address (link-local, multicast or reserved)',
    );
    const inside = await cli(
      ['add', '--url', 'https://10.0.0.8/hook', '--events', 'application.submitted'],
      {},
    );
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain('The webhook host 10.0.0.8 is an address of a private network');
  });
});
