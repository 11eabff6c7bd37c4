// Every state-changing route of the OpenAPI document, as another website's page would call it:
// refused when the browser says the request is cross-site (Origin, Sec-Fetch-Site) and when the
// body is not JSON (multipart on the upload route) — the requests a browser sends without a CORS
// preflight. The same request from the application's own origin still reaches the route.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '@admissions/api-contract';
import { createSession } from '../src/modules/auth/sessions';
import { applications } from '../src/modules/application';
import { users } from '../src/modules/auth';
import { REQUEST_GUARD_MESSAGES } from '../src/platform/http/request-guard';
import { fillPath, listRoutes, type FuzzRoute, type OpenApiDocument } from './support/fuzz';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';

const PUBLIC_ORIGIN = 'http://localhost:3000';

function isStateChanging(route: FuzzRoute): boolean {
  return route.method !== 'GET' || route.path === API_ROUTES.logout;
}

describe.each(availableDrivers())('cross-site requests to every state change (%s)', (driver) => {
  let t: TestRuntime;
  let routes: FuzzRoute[];

  beforeAll(async () => {
    t = await createTestRuntime(driver, { ENABLE_DOCS: 'true' });
    await t.runtime.app.ready();
    routes = listRoutes(t.runtime.app.swagger() as unknown as OpenApiDocument).filter(
      isStateChanging,
    );
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  /** A fresh signed-in applicant: the logout route ends its session. */
  async function signIn(): Promise<Record<string, string>> {
    const id = randomUUID();
    const db = t.runtime.database.db;
    await db.insert(users).values({
      id,
      email: `csrf.${id.slice(0, 8)}@example.edu`,
      passwordHash: 'seeded-without-a-password',
      confirmedAt: t.clock.now(),
    });
    await db.insert(applications).values({
      id: id,
      userId: id,
      roundCode: 'DEFAULT',
      answer: {},
      sensitive: {},
      addAnother: {},
      tabs: {},
      webStatus: ['started'],
    });
    return { sid: await createSession(db, id, t.clock.now()) };
  }

  function send(route: FuzzRoute, headers: Record<string, string>, jar: Record<string, string>) {
    const url = fillPath(route.path, {
      key: 'personal_statement_doc',
      id: '00000000-0000-4000-8000-000000000000',
    });
    const multipart = route.path === API_ROUTES.storageUpload;
    const withBody = route.method !== 'GET';
    return t.runtime.app.inject({
      method: route.method,
      url,
      headers,
      cookies: jar,
      ...(withBody ? { payload: multipart ? '--x--\r\n' : '{}' } : {}),
    });
  }

  const rightType = (route: FuzzRoute): Record<string, string> =>
    route.method === 'GET'
      ? {}
      : {
          'content-type':
            route.path === API_ROUTES.storageUpload
              ? 'multipart/form-data; boundary=x'
              : 'application/json',
        };

  it('lists the state-changing routes', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toContain(`GET ${API_ROUTES.logout}`);
    expect(names).toContain(`POST ${API_ROUTES.submit}`);
    expect(names).toContain(`PUT ${API_ROUTES.answer}`);
    expect(names).toContain(`POST ${API_ROUTES.storageUpload}`);
    expect(names).toContain(`POST ${API_ROUTES.login}`);
    expect(routes.length).toBeGreaterThanOrEqual(15);
  });

  it('refuses each from another origin or site (403), whatever else the request carries', async () => {
    const jar = await signIn();
    const failures: string[] = [];
    for (const route of routes) {
      const browsers: Record<string, string>[] = [
        { origin: 'https://attacker.example' },
        { origin: 'null' },
        { origin: 'not a url' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site', origin: 'https://student-pages.localhost' },
        // The browser's word wins over an Origin that happens to match.
        { 'sec-fetch-site': 'cross-site', origin: PUBLIC_ORIGIN },
        { 'sec-fetch-site': 'cross-site', host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' },
        // An older browser (Origin, no Sec-Fetch-Site): another port or scheme of the same host
        // is another origin, neither PUBLIC_URL's nor the one the request was made to.
        { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:4000' },
        { host: '127.0.0.1:3000', origin: 'https://127.0.0.1:3000' },
        { host: 'apply.example.edu', origin: 'http://apply.example.edu.attacker.example' },
        // X-Forwarded-Host counts only from a proxy TRUST_PROXY names (none here).
        { 'x-forwarded-host': 'attacker.example', origin: 'http://attacker.example' },
      ];
      for (const browser of browsers) {
        const response = await send(route, { ...rightType(route), ...browser }, jar);
        if (
          response.statusCode !== 403 ||
          response.json<{ message: string }>().message !== REQUEST_GUARD_MESSAGES.crossSite
        ) {
          failures.push(
            `${route.method} ${route.path} ${JSON.stringify(browser)}: ${response.statusCode}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    // Nothing was done with the session either.
    expect(
      (await t.request({ method: 'GET', url: API_ROUTES.profile, cookies: jar })).statusCode,
    ).toBe(200);
  });

  it('refuses each body that is not JSON (multipart for the upload) with 415', async () => {
    const jar = await signIn();
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const upload = route.path === API_ROUTES.storageUpload;
      const wrong: Record<string, string>[] = upload
        ? [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }]
        : [
            {},
            { 'content-type': 'text/plain' },
            { 'content-type': 'application/x-www-form-urlencoded' },
            { 'content-type': 'multipart/form-data; boundary=x' },
          ];
      for (const headers of wrong) {
        const response = await send(route, { ...headers, origin: PUBLIC_ORIGIN }, jar);
        const expected = upload ? REQUEST_GUARD_MESSAGES.multipart : REQUEST_GUARD_MESSAGES.json;
        if (
          response.statusCode !== 415 ||
          response.json<{ message: string }>().message !== expected
        ) {
          failures.push(
            `${route.method} ${route.path} ${JSON.stringify(headers)}: ${response.statusCode}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets each through from the application itself (same origin, the right content type)', async () => {
    // The application's own page, however it was opened: at PUBLIC_URL, at the address the
    // server listens on (http://127.0.0.1:3000 while PUBLIC_URL says localhost), or under a second
    // host name of the same server; from a current browser (Sec-Fetch-Site) or an older one
    // (Origin alone, then compared with the origin the request was made to).
    const ownPages: Record<string, string>[] = [
      { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' },
      { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' },
      { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' },
      {
        host: 'apply.example.edu',
        origin: 'http://apply.example.edu',
        'sec-fetch-site': 'same-origin',
      },
      { host: 'APPLY.example.edu:80', origin: 'http://apply.example.edu' },
      { 'sec-fetch-site': 'none' },
    ];
    const failures: string[] = [];
    for (const route of routes) {
      for (const ownPage of ownPages) {
        const jar = await signIn();
        const response = await send(route, { ...rightType(route), ...ownPage }, jar);
        if ([403, 415].includes(response.statusCode) || response.statusCode >= 500) {
          failures.push(
            `${route.method} ${route.path} ${JSON.stringify(ownPage)}: ${response.statusCode} ${response.body}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
