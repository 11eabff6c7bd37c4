// Staff service tokens (docs/design-decisions.md, 9): `<payload>.<signature>`, both base64url. The payload names one
// application (`sub`; before rounds, its applicant's id, which is that application's id), so a
// token can only ever read that application; the signature is HMAC-SHA256
// with a key derived from SECRET_KEY for this purpose alone. Read-only is enforced by the routes
// (only GET /service/* accepts a token) and by the read-only guard.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SERVICE_TOKEN_DEFAULT_TTL_MS = 15 * 60_000;
export const SERVICE_TOKEN_MAX_TTL_MS = 24 * 60 * 60_000;

export interface ServiceTokenClaims {
  /** Format version. */
  v: 1;
  /** The applicant's user id: the only application the token reads. */
  sub: string;
  /** Token id, written to every audit row the token causes. */
  jti: string;
  /** Issued and expiry times, in seconds since the epoch. */
  iat: number;
  exp: number;
  /**
   * What the token opens (docs/roles.md, "Campus systems"): 'read' the print view and the PDF,
   * 'export' the PDF only. A token minted through an API key carries the key's scope.
   */
  scope: ServiceTokenScope;
  /** The API key that minted it (POST /service/tokens); absent for the CLI's tokens. */
  kid?: string;
}

export const SERVICE_TOKEN_SCOPES = ['read', 'export'] as const;
export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];

export type ServiceTokenCheck =
  | { ok: true; claims: ServiceTokenClaims }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const B64URL = /^[A-Za-z0-9_-]+$/;

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`service-token.${payload}`).digest();
}

export function mintServiceToken(
  key: Buffer,
  options: {
    /** The application the token reads (its `sub`). */
    applicationId: string;
    now: Date;
    ttlMs?: number;
    scope?: ServiceTokenScope;
    apiKeyId?: string;
  },
): { token: string; claims: ServiceTokenClaims } {
  const ttlMs = options.ttlMs ?? SERVICE_TOKEN_DEFAULT_TTL_MS;
  if (!(ttlMs > 0 && ttlMs <= SERVICE_TOKEN_MAX_TTL_MS)) {
    throw new RangeError('service token lifetime must be above 0 and at most 24 hours');
  }
  const iat = Math.floor(options.now.getTime() / 1000);
  const claims: ServiceTokenClaims = {
    v: 1,
    sub: options.applicationId,
    jti: randomBytes(12).toString('base64url'),
    iat,
    exp: iat + Math.ceil(ttlMs / 1000),
    scope: options.scope ?? 'read',
    ...(options.apiKeyId === undefined ? {} : { kid: options.apiKeyId }),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { token: `${payload}.${sign(key, payload).toString('base64url')}`, claims };
}

function parseClaims(payload: string): ServiceTokenClaims | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  const ok =
    c.v === 1 &&
    SERVICE_TOKEN_SCOPES.includes(c.scope as ServiceTokenScope) &&
    typeof c.sub === 'string' &&
    UUID.test(c.sub) &&
    (c.kid === undefined || (typeof c.kid === 'string' && UUID.test(c.kid))) &&
    typeof c.jti === 'string' &&
    B64URL.test(c.jti) &&
    c.jti.length <= 64 &&
    Number.isSafeInteger(c.iat) &&
    Number.isSafeInteger(c.exp);
  return ok ? (c as unknown as ServiceTokenClaims) : null;
}

/** Signature first (in constant time), then the claims, then the expiry. */
export function verifyServiceToken(key: Buffer, token: string, now: Date): ServiceTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [payload = '', signature = ''] = parts;
  if (!B64URL.test(payload) || !B64URL.test(signature)) return { ok: false, reason: 'malformed' };
  // Compare the signature as text, not as decoded bytes: base64url of 32 bytes ends in a character
  // whose last two bits are padding, so four different strings decode to the same bytes and a
  // token altered in its last character would still pass.
  const expected = Buffer.from(sign(key, payload).toString('base64url'));
  const presented = Buffer.from(signature);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return { ok: false, reason: 'signature' };
  }
  const claims = parseClaims(payload);
  if (!claims) return { ok: false, reason: 'malformed' };
  if (Math.floor(now.getTime() / 1000) >= claims.exp) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

const DURATION = /^(\d{1,6})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90s", "15m", "2h", "7d" → milliseconds; null when it is not one of those. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : null;
}
