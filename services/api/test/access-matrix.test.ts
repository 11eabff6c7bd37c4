// Every route of the OpenAPI document with the access it declares (`x-access`, from
// @admissions/api-contract's endpoint-access.ts or the route's registerRoute), called by each kind
// of caller: nobody, an applicant, a staff member of each role (and one between password and TOTP
// code), an API key and a service token of each scope. Each gets exactly what the route declares:
// refused (401 without the right kind of credential, 403 with it but not the role or scope) or
// let through (whatever the route then answers to an empty request, but never 401 or 403). A
// service-token route called without a token is refused by its query's schema (400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access, StaffRole } from '@admissions/api-contract';
import { findAccountByEmail } from '../src/modules/auth';
import { createApiKey } from '../src/modules/staff';
import { mintServiceToken } from '../src/modules/service';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';
import { enrolStaffMember, STAFF_PASSWORD } from './support/staff-enrolment';

type Scope = 'read' | 'export' | 'write-ids';

interface Caller {
  name: string;
  applicant?: true;
  staff?: { role: StaffRole; pending?: true };
  apiKey?: Scope;
  token?: Exclude<Scope, 'write-ids'>;
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

type Expected = 'through' | 400 | 401 | 403;

function expectedFor(access: Access, caller: Caller, method: string): Expected {
  // Platform rule before any route (service/read-only-guard.ts): a service token never writes.
  if (caller.token && method !== 'GET') return 403;
  switch (access.kind) {
    case 'public':
      return 'through';
    case 'applicant':
      return caller.applicant ? 'through' : 401;
    case 'staff': {
      const staff = caller.staff;
      if (!staff || (access.stage === 'totp') !== (staff.pending === true)) return 401;
      // `reader` is any staff member; a narrower role only that role.
      return access.role !== 'reader' && staff.role !== access.role ? 403 : 'through';
    }
    case 'service':
      if (!caller.apiKey) return 401;
      return access.scopes.includes(caller.apiKey) ? 'through' : 403;
    case 'service-token':
      // The token is a required query field: a request without one is refused by the query's
      // schema (400), as before the access was declared; a bad one is 401.
      if (!caller.token) return 400;
      return access.scopes.includes(caller.token) ? 'through' : 403;
  }
}

interface DocumentedRoute {
  method: string;
  path: string;
  access: Access;
}

// Sign-outs end the caller's session: they go last, so every other route sees it alive.
const LAST = ['POST /staff/auth/logout', 'GET /api/logout'];

function readDocumentedRoutes(t: TestRuntime): DocumentedRoute[] {
  const spec = t.runtime.app.swagger() as unknown as {
    paths: Record<string, Record<string, { 'x-access'?: Access }>>;
  };
  const routes = Object.entries(spec.paths).flatMap(([openApiPath, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const path = openApiPath.replace(/\{(\w+)\}/g, ':$1');
      const access = operation['x-access'];
      if (!access) throw new Error(`${method.toUpperCase()} ${path} documents no access`);
      return { method: method.toUpperCase(), path, access };
    }),
  );
  const rank = (r: DocumentedRoute) => LAST.indexOf(`${r.method} ${r.path}`);
  return routes.sort((a, b) => rank(a) - rank(b));
}

function concretePath(path: string): string {
  return path.replace(':key', 'resume_doc').replace(':id', '00000000-0000-4000-8000-000000000000');
}

describe.each(availableDrivers())('declared access (%s)', (driver) => {
  let t: TestRuntime;
  const callers: Caller[] = [{ name: 'nobody' }];

  beforeAll(async () => {
    // A staff PDF rendered on a loaded test machine can outlast the default body deadline, whose
    // timer injected requests never clear early; this test is about who gets in, not timing.
    t = await createTestRuntime(driver, { REQUEST_TIMEOUT_MS: '600000' });
    const db = t.runtime.database.db;
    const now = t.clock.now();
    const applicant = await registerApplicant(t, 'ada@example.org');
    callers.push({ name: 'applicant', applicant: true, cookies: applicant });
    for (const role of ['reader', 'exporter', 'processor'] as const) {
      const { jar } = await enrolStaffMember(t, `${role}@staff.example.org`, role);
      callers.push({ name: `staff ${role}`, staff: { role }, cookies: jar });
    }
    // Between the password and the TOTP code: the pending session of an enrolled member.
    await enrolStaffMember(t, 'pending@staff.example.org', 'exporter');
    const login = await t.request({
      method: 'POST',
      url: '/staff/auth/login',
      body: { email: 'pending@staff.example.org', password: STAFF_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    callers.push({
      name: 'staff exporter before the TOTP code',
      staff: { role: 'exporter', pending: true },
      cookies: cookiesOf(login),
    });
    const account = await findAccountByEmail(db, 'ada@example.org');
    if (!account) throw new Error('the applicant was not registered');
    // A write-ids key mints no token: it only stores student system IDs.
    const writeIds = await createApiKey(db, { name: 'key write-ids', scope: 'write-ids', now });
    callers.push({
      name: 'API key of scope write-ids',
      apiKey: 'write-ids',
      headers: { authorization: `Bearer ${writeIds.key}` },
    });
    for (const scope of ['read', 'export'] as const) {
      const { key } = await createApiKey(db, { name: `key ${scope}`, scope, now });
      callers.push({
        name: `API key of scope ${scope}`,
        apiKey: scope,
        headers: { authorization: `Bearer ${key}` },
      });
      const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
        applicationId: account.id,
        now,
        scope,
      });
      callers.push({
        name: `service token of scope ${scope}`,
        token: scope,
        query: { service_token: token },
      });
    }
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('lets each caller through exactly the routes whose declared access it has', async () => {
    await t.runtime.app.ready();
    const routes = readDocumentedRoutes(t);
    // The document lists the contract's routes and the ones outside it (the local upload form).
    expect(routes.length).toBeGreaterThan(50);
    const seen: string[] = [];
    const wrong: string[] = [];
    for (const route of routes) {
      for (const caller of callers) {
        const url = concretePath(route.path);
        const search = caller.query ? `?${new URLSearchParams(caller.query).toString()}` : '';
        const response = await t.request({
          method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
          url: `${url}${search}`,
          ...(route.method === 'POST' || route.method === 'PUT' ? { body: {} } : {}),
          ...(caller.cookies ? { cookies: caller.cookies } : {}),
          ...(caller.headers ? { headers: caller.headers } : {}),
        });
        const expected = expectedFor(route.access, caller, route.method);
        const refused = [401, 403].includes(response.statusCode) || expected === 400;
        const got = refused ? response.statusCode : 'through';
        seen.push(`${route.method} ${route.path} ${route.access.kind}`);
        if (got !== expected) {
          wrong.push(
            `${route.method} ${route.path} (${JSON.stringify(route.access)}) as ${caller.name}: ` +
              `expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    // Every kind of access is exercised.
    for (const kind of ['public', 'applicant', 'staff', 'service', 'service-token']) {
      expect(
        seen.some((line) => line.endsWith(` ${kind}`)),
        kind,
      ).toBe(true);
    }
  }, 300_000);
});
