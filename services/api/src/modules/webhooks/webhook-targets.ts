// Where a webhook may be sent: https only; plain http only to this machine and only where the
// configuration says so (development and tests). Checked when a subscription is added and again
// before every attempt, so a database copied from development to production sends nothing in the
// clear. Names are not resolved: an https name that points at a private address is not refused
// (docs/webhooks.md, known limits) — only operators with the CLI add subscriptions.

/** Hosts plain http may reach, as URL's hostname writes them (IPv6 in brackets). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A URL refused as a webhook target; the message says why, for the operator. */
export class WebhookTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

export interface WebhookTargetRules {
  /** WEBHOOK_ALLOW_LOOPBACK_HTTP: http://127.0.0.1, ::1 or localhost is allowed. */
  allowLoopbackHttp: boolean;
}

export const WEBHOOK_HTTPS_ONLY =
  'A webhook URL must start with https://. Plain http is allowed only to this machine ' +
  '(127.0.0.1, ::1, localhost) in development, with WEBHOOK_ALLOW_LOOPBACK_HTTP=true.';

/** The URL to post to, or a WebhookTargetError saying why not. */
export function checkWebhookTarget(raw: string, rules: WebhookTargetRules): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookTargetError(`"${raw}" is not a URL.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebhookTargetError(
      'A webhook URL may not carry a user name or password: the signature authenticates each delivery.',
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && rules.allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) {
    return url;
  }
  throw new WebhookTargetError(WEBHOOK_HTTPS_ONLY);
}
