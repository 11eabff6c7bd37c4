// A staff member as the staff area makes one: `staff add`, the set-up link, the first sign-in with
// its TOTP enrolment. Shared by the staff API tests so the flow they rely on is written once.
import { expect } from 'vitest';
import { authenticator } from 'otplib';
import type { StaffRole } from '@admissions/api-contract';
import { createStaffAccounts } from '../../src/modules/staff/staff-accounts';
import { cookiesOf, type TestRuntime } from './test-runtime';

export const STAFF_PASSWORD = 'Quartz-Meadow-Harbor-73';

/** The TOTP code of `secret` at the runtime's clock, `offsetSteps` 30 s steps away. */
export function generateStaffCode(t: TestRuntime, secret: string, offsetSteps = 0): string {
  return authenticator
    .clone({ epoch: t.clock.now().getTime() + offsetSteps * 30_000 })
    .generate(secret);
}

/** Enrols `email` with `role`; the signed-in session's cookies and the TOTP secret. */
export async function enrolStaffMember(
  t: TestRuntime,
  email: string,
  role: StaffRole,
): Promise<{ jar: Record<string, string>; secret: string }> {
  const post = (url: string, body: unknown, cookies?: Record<string, string>) =>
    t.request({ method: 'POST', url, body, cookies });
  const accounts = createStaffAccounts({
    db: t.runtime.database.db,
    clock: t.clock,
    encryptionKey: t.runtime.secrets.encryptionKey,
  });
  const { setupToken } = await accounts.add({ email, role });
  const setup = await post('/staff/auth/setup', {
    token: setupToken,
    password: STAFF_PASSWORD,
    confirm_password: STAFF_PASSWORD,
  });
  expect(setup.statusCode, setup.body).toBe(200);
  const login = await post('/staff/auth/login', { email, password: STAFF_PASSWORD });
  expect(login.statusCode, login.body).toBe(200);
  const body = login.json<{ next: string; enrol: { otpauth_uri: string; secret: string } }>();
  expect(body.next).toBe('totp-enrol');
  const secret = body.enrol.secret;
  const totp = await post(
    '/staff/auth/totp',
    { code: generateStaffCode(t, secret) },
    cookiesOf(login),
  );
  expect(totp.statusCode, totp.body).toBe(200);
  return { jar: cookiesOf(totp), secret };
}
