// Staff sign-in through a real OpenID Connect provider on loopback (oidc-provider), both drivers:
// an allowed e-mail domain gets a staff session, another domain is refused, a group claim decides
// the role, and a callback without the flow cookie this browser got at the start fails. An
// address with two @ or without `email_verified: true` is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { staffMembers } from '../src/modules/staff';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  type TestRuntime,
} from './support/test-runtime';
import { startTestOidcProvider, type TestOidcProvider } from './support/oidc-test-provider';

const PUBLIC_URL = 'http://localhost:3000';
const CALLBACK = `${PUBLIC_URL}/staff/auth/oidc/callback`;

describe.each(availableDrivers())('staff sign-in with OpenID Connect (%s)', (driver) => {
  let t: TestRuntime;
  let idp: TestOidcProvider;

  /** Start → provider → callback, as a browser would; the callback's answer. */
  async function signIn(options: { dropFlowCookie?: boolean } = {}) {
    const start = await t.request({ method: 'GET', url: '/staff/auth/oidc/start' });
    expect(start.statusCode, start.body).toBe(302);
    const flow = cookiesOf(start);
    expect(flow.staff_oidc).toBeTruthy();
    const authorization = new URL(start.headers.location as string);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBeTruthy();
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    const back = await idp.authorize(authorization.href, CALLBACK);
    return t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: options.dropFlowCookie ? {} : flow,
    });
  }

  beforeAll(async () => {
    idp = await startTestOidcProvider(CALLBACK);
    t = await createTestRuntime(driver, {
      PUBLIC_URL,
      STAFF_OIDC_ISSUER: idp.issuer,
      STAFF_OIDC_CLIENT_ID: idp.clientId,
      STAFF_OIDC_CLIENT_SECRET: idp.clientSecret,
      STAFF_OIDC_ALLOWED_DOMAINS: 'staff.example.edu',
      STAFF_OIDC_GROUP_CLAIM: 'groups',
      STAFF_OIDC_READER_GROUPS: 'admissions-readers',
      STAFF_OIDC_EXPORTER_GROUPS: 'admissions-exporters',
    });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('lets a person of an allowed domain and group in, with the role of the group', async () => {
    idp.signInAs({ sub: 'u-1', email: 'Reader@Staff.Example.edu', groups: ['admissions-readers'] });
    const callback = await signIn();
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/staff');
    const jar = cookiesOf(callback);
    expect(jar.staff_sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const setCookie = String(callback.headers['set-cookie']);
    expect(setCookie).toMatch(/staff_sid=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const me = await t.request({
      method: 'GET',
      url: '/staff/api/me',
      cookies: { staff_sid: jar.staff_sid! },
    });
    expect(me.json()).toEqual({ email: 'reader@staff.example.edu', role: 'reader' });
    // The staff session opens nothing of the applicant API.
    expect(
      (
        await t.request({
          method: 'GET',
          url: '/api/profile',
          cookies: { staff_sid: jar.staff_sid! },
        })
      ).statusCode,
    ).toBe(401);

    idp.signInAs({
      sub: 'u-2',
      email: 'exporter@staff.example.edu',
      groups: ['admissions-exporters'],
    });
    const exporter = await signIn();
    const me2 = await t.request({
      method: 'GET',
      url: '/staff/api/me',
      cookies: { staff_sid: cookiesOf(exporter).staff_sid! },
    });
    expect(me2.json()).toEqual({ email: 'exporter@staff.example.edu', role: 'exporter' });
    const [row] = await t.runtime.database.db
      .select()
      .from(staffMembers)
      .where(eq(staffMembers.email, 'exporter@staff.example.edu'));
    expect(row).toMatchObject({ source: 'oidc', role: 'exporter', passwordHash: null });
  });

  it('refuses another e-mail domain, a person in no staff group, and a disabled member', async () => {
    for (const person of [
      { sub: 'u-3', email: 'someone@gmail.com', groups: ['admissions-readers'] },
      { sub: 'u-4', email: 'nogroup@staff.example.edu', groups: ['students'] },
    ]) {
      idp.signInAs(person);
      const callback = await signIn();
      expect(callback.statusCode).toBe(302);
      expect(callback.headers.location).toBe('/staff?sign_in_error=refused');
      expect(cookiesOf(callback).staff_sid ?? '').toBe('');
    }
    await t.runtime.database.db
      .update(staffMembers)
      .set({ disabledAt: t.clock.now() })
      .where(eq(staffMembers.email, 'reader@staff.example.edu'));
    idp.signInAs({ sub: 'u-1', email: 'reader@staff.example.edu', groups: ['admissions-readers'] });
    expect((await signIn()).headers.location).toBe('/staff?sign_in_error=refused');
  });

  it('refuses an address with a second @, or one the provider has not verified as true', async () => {
    for (const person of [
      // The part after the first @ is an allowed domain; the address is not one of it.
      { sub: 'u-6', email: 'eve@staff.example.edu@evil.example', groups: ['admissions-readers'] },
      { sub: 'u-7', email: 'eve@evil.example@staff.example.edu', groups: ['admissions-readers'] },
      { sub: 'u-8', email: 'eve @staff.example.edu', groups: ['admissions-readers'] },
      {
        sub: 'u-9',
        email: 'unverified@staff.example.edu',
        email_verified: null,
        groups: ['admissions-readers'],
      },
      {
        sub: 'u-10',
        email: 'unverified@staff.example.edu',
        email_verified: 'false',
        groups: ['admissions-readers'],
      },
      {
        sub: 'u-11',
        email: 'unverified@staff.example.edu',
        email_verified: 'true',
        groups: ['admissions-readers'],
      },
      {
        sub: 'u-12',
        email: 'unverified@staff.example.edu',
        email_verified: false,
        groups: ['admissions-readers'],
      },
      // A group claim that is one string, not a list, names no group.
      {
        sub: 'u-13',
        email: 'single@staff.example.edu',
        groups: 'admissions-exporters' as unknown as string[],
      },
    ]) {
      idp.signInAs(person);
      const callback = await signIn();
      expect(callback.headers.location, person.sub).toBe('/staff?sign_in_error=refused');
      expect(cookiesOf(callback).staff_sid ?? '').toBe('');
    }
    const members = await t.runtime.database.db.select().from(staffMembers);
    expect(members.map((m) => m.email).filter((e) => /eve|unverified|single/.test(e))).toEqual([]);
  });

  it('fails a callback that does not come back to the browser that started it', async () => {
    idp.signInAs({ sub: 'u-5', email: 'other@staff.example.edu', groups: ['admissions-readers'] });
    const callback = await signIn({ dropFlowCookie: true });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/staff?sign_in_error=failed');
    expect(cookiesOf(callback).staff_sid ?? '').toBe('');
    // Without a provider configured the routes say so.
    const plain = await createTestRuntime(driver);
    try {
      expect(
        (await plain.request({ method: 'GET', url: '/staff/auth/oidc/start' })).statusCode,
      ).toBe(404);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
