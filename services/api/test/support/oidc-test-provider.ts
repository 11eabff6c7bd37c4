// A real OpenID Connect provider (the `oidc-provider` package) on loopback for the staff sign-in
// tests: one confidential client, and people chosen by the test. Its interaction step (the login
// and consent pages a person would fill in) signs in whoever the test named last.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestPerson {
  sub: string;
  email: string;
  groups?: string[];
  /** The `email_verified` claim: true unless given; null leaves it out. */
  email_verified?: unknown;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person the next interaction signs in. */
  signInAs(person: TestPerson): void;
  /**
   * Follows the browser's redirects from the authorization URL through the provider until it
   * sends the browser back to `redirectPrefix`; returns that URL.
   */
  authorize(authorizationUrl: string, redirectPrefix: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startTestOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const people = new Map<string, TestPerson>();
  let current: TestPerson | undefined;
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, res) =>
    res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'staff-area';
  const clientSecret = 'test-client-secret-0123456789abcdef';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    pkce: { required: () => true },
    // Our own interaction step (below) and a signing key made for this run.
    features: { devInteractions: { enabled: false } },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
            format: 'jwk',
          }),
          kid: 'test',
          use: 'sig',
          alg: 'RS256',
        },
      ],
    },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    findAccount: (_ctx: unknown, id: string) => {
      const person = people.get(id);
      return person
        ? {
            accountId: id,
            claims: () => ({
              sub: id,
              email: person.email,
              ...(person.email_verified === null
                ? {}
                : { email_verified: person.email_verified ?? true }),
              groups: person.groups ?? [],
            }),
          }
        : undefined;
    },
  });
  const providerCallback = provider.callback();
  handler = (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      providerCallback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (!current) throw new Error('no person to sign in');
      people.set(current.sub, current);
      const grant = new provider.Grant({ accountId: current.sub, clientId });
      grant.addOIDCScope(details.params.scope ?? 'openid');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: current.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(person) {
      current = person;
    },
    async authorize(authorizationUrl, redirectPrefix) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (url.href.startsWith(redirectPrefix)) return url;
        const response = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (!location)
          throw new Error(`provider answered ${response.status}: ${await response.text()}`);
        url = new URL(location, url);
      }
      throw new Error('too many redirects');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
