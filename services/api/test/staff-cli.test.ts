// The CLI's staff commands against a running server, as an operator runs them: on PostgreSQL
// directly, on the embedded database through the server's socket.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryAnswers } from '../src/modules/application';
import { startPgliteSocket } from '../src/platform/db/pglite-socket';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';
import { cliNodeArgs } from './support/process-stack';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');
const PUBLIC_URL = 'https://apply.example.edu';

describe.each(availableDrivers())('staff CLI commands (%s)', (driver) => {
  let t: TestRuntime;
  let stopSocket: (() => Promise<void>) | undefined;
  let files: string;

  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, cliNodeArgs(args), {
      cwd: apiRoot,
      env: {
        ...process.env,
        ...env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrl ?? '',
        SECRET_KEY: '',
        PUBLIC_URL,
        LOG_LEVEL: 'silent',
      },
    });
  const failure = (args: string[]) =>
    cli(args).then(
      ({ stdout }) => {
        throw new Error(`expected the command to fail; it printed:\n${stdout}`);
      },
      (error: { code: number; stderr: string }) => error,
    );
  const writeJson = (name: string, value: unknown) => {
    const file = path.join(files, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const countPrefills = async () =>
    (await t.runtime.database.db.select().from(temporaryAnswers)).length;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    // The test runtime hands PGlite in, so it does not share it; share it as a server does.
    if (t.runtime.database.pglite) {
      stopSocket = await startPgliteSocket(t.runtime.database.pglite, t.dataDir);
    }
    files = mkdtempSync(path.join(os.tmpdir(), 'staff-cli-'));
    await registerApplicant(t, `staff.${driver}@example.org`);
  }, 60_000);
  afterAll(async () => {
    await stopSocket?.();
    await t?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('service-token prints a read-only token and the print-view link that reads that applicant', async () => {
    const email = `staff.${driver}@example.org`;
    const started = Date.now();
    const { stdout } = await cli(['service-token', '--email', ` ${email.toUpperCase()} `]);
    const link = /^Print view: (\S+)$/m.exec(stdout)?.[1];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/print`);
    const token = url.searchParams.get('service_token')!;
    expect(stdout).toContain(`\n${token}\n`);
    expect(stdout).toContain(`PDF:        ${PUBLIC_URL}/service/pdf?service_token=${token}`);
    expect(stdout).toMatch(/valid 15m/);
    const read = await t.request({
      method: 'GET',
      url: `/service/tmp-pdf?service_token=${encodeURIComponent(token)}`,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().applicant.email).toBe(email);

    const json = JSON.parse(
      (await cli(['service-token', '--email', email, '--ttl', '2h', '--json'])).stdout,
    ) as { token: string; expiresAt: string; printView: string; id: string };
    const lifetime = Date.parse(json.expiresAt) - started;
    expect(lifetime).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(lifetime).toBeLessThan(2 * 3_600_000 + 60_000);
    expect(json.printView).toContain(encodeURIComponent(json.token).replace(/%2E/g, '.'));
  }, 30_000);

  it('service-token explains an unknown e-mail and a bad or too long lifetime', async () => {
    const [unknown, tooLong, notDuration, noEmail] = await Promise.all([
      failure(['service-token', '--email', 'nobody@example.org']),
      failure(['service-token', '--email', `staff.${driver}@example.org`, '--ttl', '25h']),
      failure(['service-token', '--email', `staff.${driver}@example.org`, '--ttl', 'soon']),
      failure(['service-token']),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No applicant has the e-mail address nobody@example.org.');
    expect(tooLong.stderr).toContain('--ttl may be at most 24h');
    expect(notDuration.stderr).toContain('--ttl "soon" is not a duration');
    expect(noEmail.stderr).toContain('--email is required');
  }, 30_000);

  it('prefill stores an answer set whose /about link GET /public/tmp serves', async () => {
    const answers = { first_name: 'Grace', last_name: 'Hopper', city: 'Arlington' };
    const { stdout } = await cli(['prefill', '--file', writeJson('ok.json', answers)]);
    expect(stdout).toMatch(/Prefilled 3 answers, valid 7d/);
    // A relative --file is read from where the command was typed (npm sets INIT_CWD), not from
    // services/api where npm runs the CLI.
    writeJson('relative.json', answers);
    const relative = await cli(['prefill', '--file', 'relative.json'], { INIT_CWD: files });
    expect(relative.stdout).toMatch(/Prefilled 3 answers, valid 7d/);
    const link = new URL(/(https:\/\/\S+)/.exec(stdout)![1]!);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/about`);
    const token = link.searchParams.get('token')!;
    const served = await t.request({
      method: 'GET',
      url: `/public/tmp?token=${encodeURIComponent(token)}`,
    });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual({ answer: answers });
    // Stored hashed: the token itself is nowhere in the table.
    const rows = await t.runtime.database.db.select().from(temporaryAnswers);
    expect(JSON.stringify(rows)).not.toContain(token);
  }, 30_000);

  it('prefill refuses SSN, alien registration number, disciplinary answers, unknown keys and long values', async () => {
    const before = await countPrefills();
    const [sensitive, invalid, badTtl] = await Promise.all([
      failure([
        'prefill',
        '--file',
        writeJson('sensitive.json', {
          first_name: 'Ada',
          ssn: '123-45-6789',
          alien_registration_number: 'A123456789',
          conviction: 'Y',
          suspended_comment: 'details',
        }),
      ]),
      failure([
        'prefill',
        '--file',
        writeJson('invalid.json', {
          first_name: 'x'.repeat(46),
          favourite_colour: 'blue',
          personal_statement_doc: 'statement.pdf',
        }),
      ]),
      failure(['prefill', '--file', writeJson('ttl.json', { first_name: 'Ada' }), '--ttl', '1y']),
    ]);
    expect(sensitive.code).toBe(1);
    expect(sensitive.stderr).toContain('Nothing was stored.');
    expect(sensitive.stderr).toContain(
      'never carry SSN, alien registration number or disciplinary answers; remove: ssn, alien_registration_number, conviction, suspended_comment.',
    );
    expect(sensitive.stderr).not.toContain('123-45-6789');
    expect(invalid.stderr).toContain(
      'The answer to "first_name" is too long (at most 45 characters).',
    );
    expect(invalid.stderr).toContain('"favourite_colour" is not a question of this application.');
    expect(invalid.stderr).toContain(
      'Documents cannot be prefilled; remove: personal_statement_doc.',
    );
    expect(badTtl.stderr).toContain('--ttl "1y" is not a duration');
    expect(await countPrefills()).toBe(before);
  }, 30_000);
});
