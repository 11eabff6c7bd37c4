// `npm run cli -- staff …` against a running server, as an operator runs it (PostgreSQL directly,
// the embedded database through the server's socket): the set-up link it prints works once in the
// server, `list` and `disable` (which ends the member's sessions), and API keys that the server
// accepts until they are revoked.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_MESSAGES } from '@admissions/api-contract';
import { startPgliteSocket } from '../src/platform/db/pglite-socket';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  type TestRuntime,
} from './support/test-runtime';
import { cliNodeArgs } from './support/process-stack';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'Quartz-Meadow-Harbor-73';

describe.each(availableDrivers())('staff area CLI (%s)', (driver) => {
  let t: TestRuntime;
  let stopSocket: (() => Promise<void>) | undefined;

  const cli = (args: string[]) =>
    run(process.execPath, cliNodeArgs(['staff', ...args]), {
      cwd: apiRoot,
      env: {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrl ?? '',
        SECRET_KEY: '',
        PUBLIC_URL: 'https://apply.example.edu',
        LOG_LEVEL: 'silent',
      },
    });
  const failure = (args: string[]) =>
    cli(args).then(
      () => {
        throw new Error('expected the command to fail');
      },
      (error: { code: number; stderr: string }) => error,
    );

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    if (t.runtime.database.pglite) {
      stopSocket = await startPgliteSocket(t.runtime.database.pglite, t.dataDir);
    }
  }, 60_000);
  afterAll(async () => {
    await stopSocket?.();
    await t?.close();
  });

  it('add prints a one-time set-up link; list and disable manage the member', async () => {
    const { stdout } = await cli([
      'add',
      '--email',
      ' Officer@Staff.Example.edu ',
      '--role',
      'reader',
    ]);
    const link = /(https:\/\/apply\.example\.edu\/staff\/setup\?token=\S+)/.exec(stdout)?.[1];
    expect(link, stdout).toBeDefined();
    expect(stdout).not.toMatch(/password/i);
    const token = new URL(link!).searchParams.get('token')!;
    const body = { token, password: PASSWORD, confirm_password: PASSWORD };
    expect((await t.request({ method: 'POST', url: '/staff/auth/setup', body })).statusCode).toBe(
      200,
    );
    expect((await t.request({ method: 'POST', url: '/staff/auth/setup', body })).statusCode).toBe(
      400,
    );

    expect((await cli(['list'])).stdout).toContain(
      'officer@staff.example.edu\treader\tlocal\tTOTP not enrolled',
    );
    const duplicate = await failure([
      'add',
      '--email',
      'officer@staff.example.edu',
      '--role',
      'reader',
    ]);
    expect(duplicate.code).toBe(1);
    expect(
      (await failure(['add', '--email', 'x@staff.example.edu', '--role', 'admin'])).stderr,
    ).toContain('--role must be reader or exporter');

    // A pending sign-in is a session; disabling ends it at once.
    const login = await t.request({
      method: 'POST',
      url: '/staff/auth/login',
      body: { email: 'officer@staff.example.edu', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    await cli(['disable', '--email', 'officer@staff.example.edu']);
    expect((await cli(['list'])).stdout).toContain(
      'officer@staff.example.edu\treader\tlocal\tdisabled',
    );
    const after = await t.request({
      method: 'POST',
      url: '/staff/auth/totp',
      body: { code: '123456' },
      cookies: cookiesOf(login),
    });
    expect(after.statusCode).toBe(401);
    const again = await t.request({
      method: 'POST',
      url: '/staff/auth/login',
      body: { email: 'officer@staff.example.edu', password: PASSWORD },
    });
    expect(again.statusCode).toBe(401);
  }, 60_000);

  it('api-key create prints a key the server accepts until api-key revoke', async () => {
    const { stdout } = await cli(['api-key', 'create', '--name', 'Campus SIS', '--scope', 'read']);
    const key = /^(sk_\S+)$/m.exec(stdout)?.[1];
    const id = /id ([0-9a-f-]{36})/.exec(stdout)?.[1];
    expect(key).toBeDefined();
    const list = () =>
      t.request({
        method: 'GET',
        url: '/service/applications',
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await list()).statusCode).toBe(200);
    expect((await cli(['api-key', 'list'])).stdout).toContain(`${id}\tCampus SIS\tread\tlive`);
    await cli(['api-key', 'revoke', '--id', id!]);
    const refused = await list();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(STAFF_MESSAGES.apiKeyInvalid);
    expect((await failure(['api-key', 'revoke', '--id', id!])).code).toBe(1);
  }, 60_000);
});
