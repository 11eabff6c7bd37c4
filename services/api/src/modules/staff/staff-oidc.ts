// Staff sign-in through the institution's OpenID Connect provider: authorization code with PKCE
// and a nonce (openid-client). The state, nonce and PKCE verifier travel in a short cookie sealed
// with AES-256-GCM (secret and tamper-proof), so no table is needed and a callback only completes
// the sign-in the same browser started.
import type * as Oidc from 'openid-client';
import { eq } from 'drizzle-orm';
import type { StaffRole } from '@admissions/api-contract';
import { isValidEmail, normalizeEmail } from '@admissions/form';
import type { StaffOidcConfig } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { staffMembers } from './schema';
import { seal, unseal } from '../../platform/lib/crypto';

export const OIDC_COOKIE = 'staff_oidc';
export const OIDC_COOKIE_PATH = '/staff/auth/oidc';
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;

interface FlowState {
  state: string;
  nonce: string;
  verifier: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

export type OidcOutcome =
  | { ok: true; staffId: string; email: string; role: StaffRole }
  | { ok: false; reason: 'failed' | 'refused' };

/**
 * The address an identity token names, or null when it is not one plain address: exactly one `@`
 * (`eve@staff.example.edu@evil.example` is refused, not read as staff.example.edu), no spaces, a
 * dotted domain — the rule applicants' addresses follow. Lowercased, as staff members are keyed.
 */
export function parseClaimedAddress(claim: unknown): { email: string; domain: string } | null {
  if (typeof claim !== 'string') return null;
  const email = normalizeEmail(claim);
  if (!isValidEmail(email)) return null;
  return { email, domain: email.slice(email.indexOf('@') + 1) };
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function createStaffOidc(options: {
  config: StaffOidcConfig;
  redirectUri: string;
  db: Db;
  encryptionKey: Buffer;
  now: () => Date;
}) {
  const { config, db, encryptionKey } = options;
  let discovered: Promise<{ oidc: typeof Oidc; cfg: Oidc.Configuration }> | undefined;

  /**
   * Discovery once, retried on the next sign-in if the provider was unreachable. openid-client
   * loads here too: a server start does not pay for it before anyone signs in.
   */
  function configuration(): Promise<{ oidc: typeof Oidc; cfg: Oidc.Configuration }> {
    discovered ??= (async () => {
      const oidc = await import('openid-client');
      const issuer = new URL(config.issuer);
      // Plain http only for a provider on this machine (development and tests).
      const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
      const cfg = await oidc.discovery(
        issuer,
        config.clientId,
        { redirect_uris: [options.redirectUri], response_types: ['code'] },
        oidc.ClientSecretPost(config.clientSecret),
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      return { oidc, cfg };
    })().catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  }

  function decideRole(
    claims: Record<string, unknown>,
    domain: string,
    existing: { role: string } | undefined,
  ): StaffRole | null {
    if (config.allowedDomains.length > 0 && !config.allowedDomains.includes(domain)) return null;
    if (config.groupClaim !== null) {
      // A list of names; anything else (one string, an object) names no group.
      const raw = claims[config.groupClaim];
      const groups = Array.isArray(raw) ? raw.filter((g) => typeof g === 'string') : [];
      if (groups.some((g) => config.exporterGroups.includes(g))) return 'exporter';
      if (groups.some((g) => config.readerGroups.includes(g))) return 'reader';
      return null;
    }
    // Domain rule only: an operator may have promoted this member (`staff add … --role exporter`).
    return existing?.role === 'exporter' ? 'exporter' : 'reader';
  }

  return {
    /** The provider's authorization URL and the sealed flow cookie to set. */
    async start(): Promise<{ url: string; cookie: string }> {
      const { oidc, cfg } = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const flow: FlowState = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier,
        exp: options.now().getTime() + OIDC_FLOW_TTL_MS,
      };
      const url = oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: options.redirectUri,
        scope: config.groupClaim ? 'openid email profile groups' : 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: url.href, cookie: seal(encryptionKey, JSON.stringify(flow)) };
    },

    /**
     * Verifies the callback (state, PKCE, ID token signature, issuer, audience, nonce, expiry),
     * then maps the person to a staff member: e-mail verified, domain and/or group allowed, not
     * disabled. Created as an 'oidc' member on first sign-in; the role follows the groups each time.
     */
    async finish(currentUrl: URL, sealedFlow: string | undefined): Promise<OidcOutcome> {
      let flow: FlowState;
      try {
        flow = JSON.parse(unseal(encryptionKey, sealedFlow ?? '')) as FlowState;
      } catch {
        return { ok: false, reason: 'failed' };
      }
      if (!(flow.exp > options.now().getTime())) return { ok: false, reason: 'failed' };
      let claims: Record<string, unknown>;
      try {
        const { oidc, cfg } = await configuration();
        const tokens = await oidc.authorizationCodeGrant(cfg, currentUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = { ...(tokens.claims() ?? {}) };
        // Providers that keep the address out of the ID token give it at the userinfo endpoint
        // (openid-client checks its `sub` is the token's); what the ID token says stands.
        if (
          (typeof claims.email !== 'string' || claims.email_verified !== true) &&
          typeof claims.sub === 'string'
        ) {
          claims = {
            ...(await oidc.fetchUserInfo(cfg, tokens.access_token, claims.sub)),
            ...claims,
          };
        }
      } catch {
        return { ok: false, reason: 'failed' };
      }
      const address = parseClaimedAddress(claims.email);
      // Verified means the boolean true: absent, "true" or "false" (a string) is not a verification.
      if (!address || claims.email_verified !== true) return { ok: false, reason: 'refused' };
      const { email } = address;
      const [existing] = await db
        .select()
        .from(staffMembers)
        .where(eq(staffMembers.email, email))
        .limit(1);
      if (existing?.disabledAt) return { ok: false, reason: 'refused' };
      const role = decideRole(claims, address.domain, existing);
      if (!role) return { ok: false, reason: 'refused' };
      if (existing) {
        if (existing.role !== role) {
          await db.update(staffMembers).set({ role }).where(eq(staffMembers.id, existing.id));
        }
        return { ok: true, staffId: existing.id, email, role };
      }
      const [created] = await db
        .insert(staffMembers)
        .values({ email, role, source: 'oidc' })
        .onConflictDoUpdate({ target: staffMembers.email, set: { role } })
        .returning({ id: staffMembers.id });
      if (!created) return { ok: false, reason: 'failed' };
      return { ok: true, staffId: created.id, email, role };
    },
  };
}

export type StaffOidc = ReturnType<typeof createStaffOidc>;
