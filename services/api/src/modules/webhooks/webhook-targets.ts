// Where a webhook may be sent: https only; plain http only to this machine and only where the
// configuration says so (development and tests). Checked when a subscription is added and again
// before every attempt, so a database copied from development to production sends nothing in the
// clear. The address a delivery connects to is checked too, as the connection resolves it (not
// at `webhooks add`: a name can point elsewhere later): a public address only, this machine only
// where loopback is allowed, the university's private networks only where the configuration
// allows them, and never a link-local one (cloud metadata services answer there).
import { lookup as lookupAddresses, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

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
  /** WEBHOOK_ALLOW_LOOPBACK_HTTP: http://127.0.0.1, ::1 or localhost is allowed, and loopback addresses. */
  allowLoopbackHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: 10/8, 172.16/12, 192.168/16, 100.64/10 and fc00::/7 are allowed. */
  allowPrivateNetworks: boolean;
}

export const WEBHOOK_HTTPS_ONLY =
  'A webhook URL must start with https://. Plain http is allowed only to this machine ' +
  '(127.0.0.1, ::1, localhost) in development, with WEBHOOK_ALLOW_LOOPBACK_HTTP=true.';

const LOOPBACK_REFUSED =
  'an address of this machine: webhooks reach it only in development, with WEBHOOK_ALLOW_LOOPBACK_HTTP=true.';
const PRIVATE_REFUSED =
  'an address of a private network: set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to send webhooks to a receiver inside the university’s network.';
const OTHER_REFUSED =
  'not a public address (link-local, multicast or reserved): webhooks are never sent there.';

/** IPv6's global unicast block: the only public IPv6 addresses. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** Why a webhook may not connect to `address` (an IP address), or null when it may. */
export function describeRefusedAddress(address: string, rules: WebhookTargetRules): string | null {
  if (!ipaddr.isValid(address)) return OTHER_REFUSED;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast') {
    // ipaddr.js calls every IPv6 address it has no name for unicast, the deprecated
    // IPv4-compatible ::a.b.c.d (::7f00:1, reaching 127.0.0.1 where a 6in4 tunnel exists)
    // included: only the global unicast block 2000::/3 is public.
    if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST)) return OTHER_REFUSED;
    return null;
  }
  if (range === 'loopback') return rules.allowLoopbackHttp ? null : LOOPBACK_REFUSED;
  if (range === 'private' || range === 'uniqueLocal' || range === 'carrierGradeNat') {
    return rules.allowPrivateNetworks ? null : PRIVATE_REFUSED;
  }
  return OTHER_REFUSED;
}

/** URL's hostname without an IPv6 literal's brackets. */
function unbracket(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

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
  const plainToLoopback =
    url.protocol === 'http:' && rules.allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !plainToLoopback)
    throw new WebhookTargetError(WEBHOOK_HTTPS_ONLY);
  // An address written in the URL is judged now; a name, when a delivery resolves it.
  const host = unbracket(url.hostname);
  if (ipaddr.isValid(host)) {
    const refused = describeRefusedAddress(host, rules);
    if (refused) throw new WebhookTargetError(`The webhook host ${host} is ${refused}`);
  }
  return url;
}

/**
 * The resolver a delivery's connection uses: the system's, refusing the name when any address it
 * resolves to is refused (so a name with one public and one inside address cannot be used to
 * reach the inside one on a retry).
 */
export function createWebhookLookup(rules: WebhookTargetRules): LookupFunction {
  return (hostname, options, callback) => {
    lookupAddresses(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      for (const { address } of addresses) {
        const refused = describeRefusedAddress(address, rules);
        if (refused) {
          callback(
            new WebhookTargetError(
              `The webhook host ${hostname} resolves to ${address}, ${refused}`,
            ),
            '',
            0,
          );
          return;
        }
      }
      if (options.all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return;
      }
      const [first] = addresses;
      if (!first) {
        callback(new WebhookTargetError(`The webhook host ${hostname} has no address.`), '', 0);
        return;
      }
      callback(null, first.address, first.family);
    });
  };
}
