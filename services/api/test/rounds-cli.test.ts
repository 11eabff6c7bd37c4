// `npm run cli -- rounds …` as an operator runs it (the compiled CLI, in its own process) against
// a running service: on PostgreSQL directly, on the embedded database through the server's
// socket. Also the rounds the partner configuration adds at start-up, and concurrent adds of one
// code on both drivers.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoundCode } from '@admissions/api-contract';
import { DEFAULT_PARTNER, ROUND_CODE_PATTERN, mergePartnerConfig } from '@admissions/form';
import {
  RoundExistsError,
  addRound,
  findRound,
  listRounds,
  syncPartnerRounds,
} from '../src/modules/rounds';
import { startPgliteSocket } from '../src/platform/db/pglite-socket';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';
import { cliNodeArgs } from './support/process-stack';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');

const PARTNER_FILE = {
  timeZone: 'America/Chicago',
  rounds: [
    {
      code: 'RD',
      name: 'Regular Decision',
      entryTerm: '2027FA',
      opensAt: '2026-08-01T00:00:00-05:00',
      deadline: '2027-01-15T23:59:00-06:00',
      graceMinutes: 15,
    },
  ],
};
const PARTNER = mergePartnerConfig(DEFAULT_PARTNER, PARTNER_FILE);

it("the CLI's and the configuration's round code is the API's", () => {
  expect(ROUND_CODE_PATTERN.source).toBe(RoundCode.pattern);
});

describe.each(availableDrivers())('rounds CLI commands (%s)', (driver) => {
  let t: TestRuntime;
  let stopSocket: (() => Promise<void>) | undefined;
  let files: string;
  let partnerFile: string;

  const cli = (args: string[]) =>
    run(process.execPath, cliNodeArgs(args), {
      cwd: apiRoot,
      env: {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrl ?? '',
        PARTNER_CONFIG_FILE: partnerFile,
        SECRET_KEY: '',
        LOG_LEVEL: 'silent',
      },
    });
  const failure = (args: string[]) =>
    cli(args).then(
      ({ stdout }) => {
        throw new Error(`expected the command to fail; it printed:\n${stdout}`);
      },
      (error: { code: number; stdout: string; stderr: string }) => ({
        ...error,
        // What a failure printed besides its message (an unexpected error's log line) helps.
        stderr: `${error.stderr}${error.stdout}`,
      }),
    );
  const ea = (overrides: Record<string, string> = {}) =>
    Object.entries({
      '--code': 'EA',
      '--name': 'Early Action',
      '--entry-term': '2027FA',
      '--opens-at': '2026-08-01T00:00:00-05:00',
      '--deadline': '2026-11-01T23:59:00-06:00',
      ...overrides,
    }).flat();

  beforeAll(async () => {
    files = mkdtempSync(path.join(os.tmpdir(), 'rounds-cli-'));
    partnerFile = path.join(files, 'partner.json');
    writeFileSync(partnerFile, JSON.stringify(PARTNER_FILE));
    t = await createTestRuntime(driver, { PARTNER_CONFIG_FILE: partnerFile });
    // The test runtime hands PGlite in, so it does not share it; share it as a server does.
    if (t.runtime.database.pglite) {
      stopSocket = await startPgliteSocket(t.runtime.database.pglite, t.dataDir);
    }
  }, 60_000);
  afterAll(async () => {
    await stopSocket?.();
    await t?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it("start-up added the configuration's round; rounds list prints it in the institution's time zone", async () => {
    const { stdout } = await cli(['rounds', 'list']);
    expect(stdout).toContain('Times in America/Chicago.');
    expect(stdout).toContain(
      'RD\tRegular Decision\t2027FA\topens August 1, 2026 at 12:00 AM CDT\tdeadline January 15, 2027 at 11:59 PM CST\tgrace 15 min',
    );
  }, 30_000);

  it('rounds add stores a round that rounds list then shows, earliest deadline first', async () => {
    const { stdout } = await cli(['rounds', 'add', ...ea(), '--grace-minutes', '0']);
    expect(stdout).toContain('Round added:\nEA\tEarly Action\t2027FA');
    const stored = await findRound(t.runtime.database.db, 'EA');
    expect(stored?.deadline.toISOString()).toBe('2026-11-02T05:59:00.000Z');
    expect(stored?.graceMinutes).toBe(0);
    const listed = (await cli(['rounds', 'list'])).stdout.split('\n').slice(1, 3);
    expect(listed[0]).toBe(
      'EA\tEarly Action\t2027FA\topens August 1, 2026 at 12:00 AM CDT\tdeadline November 1, 2026 at 11:59 PM CST',
    );
    expect(listed[1]).toMatch(/^RD\t/);
  }, 30_000);

  it('rounds add and update explain each refusal and exit non-zero', async () => {
    const [duplicate, unknown, badTime, reversed, missing, badGrace, badTerm, nothing] =
      await Promise.all([
        failure(['rounds', 'add', ...ea({ '--code': 'RD' })]),
        failure(['rounds', 'update', '--code', 'ED2', '--name', 'Early Decision II']),
        failure(['rounds', 'add', ...ea({ '--code': 'TR', '--deadline': 'November 1' })]),
        failure(['rounds', 'add', ...ea({ '--code': 'TR', '--opens-at': '2026-12-01T00:00:00Z' })]),
        failure(['rounds', 'add', '--code', 'TR']),
        failure(['rounds', 'add', ...ea({ '--code': 'TR' }), '--grace-minutes', 'lots']),
        failure(['rounds', 'add', ...ea({ '--code': 'TR', '--entry-term': '2031FA' })]),
        failure(['rounds', 'update', '--code', 'RD']),
      ]);
    for (const refused of [duplicate, unknown, badTime, reversed, missing, badGrace, badTerm]) {
      expect(refused.code).not.toBe(0);
    }
    expect(duplicate.stderr).toContain('A round with the code "RD" already exists.');
    expect(unknown.stderr).toContain('There is no admission round with the code "ED2".');
    expect(badTime.stderr).toContain(
      '--deadline must be an ISO 8601 time with its offset or Z, such as 2027-01-15T23:59:00-06:00, not "November 1".',
    );
    expect(reversed.stderr).toContain('--deadline must be after the opening time.');
    expect(missing.stderr).toContain('--name, --entry-term, --opens-at, --deadline are required.');
    expect(badGrace.stderr).toContain(
      '--grace-minutes must be a whole number of minutes from 0 to 10080 (7 days), not "lots".',
    );
    expect(badTerm.stderr).toContain(
      '--entry-term must be one of the entry terms of the partner configuration (2027FA, 2028SP), not "2031FA".',
    );
    expect(nothing.stderr).toContain('Nothing to change');
    // export --round names a round that must exist: refused before any application is selected.
    const exportUnknown = await failure([
      'export',
      '--out',
      path.join(files, 'export'),
      '--round',
      'ZZ',
    ]);
    expect(exportUnknown.code).toBe(1);
    expect(exportUnknown.stderr).toContain('There is no admission round with the code "ZZ".');
    // Nothing refused was stored.
    expect((await listRounds(t.runtime.database.db)).map((r) => r.code).sort()).not.toContain('TR');
  }, 60_000);

  it('rounds update changes the given fields, checks them against the stored ones, and a restart keeps them', async () => {
    const { stdout } = await cli([
      'rounds',
      'update',
      '--code',
      'RD',
      '--deadline',
      '2027-01-22T23:59:00-06:00',
      '--grace-minutes',
      '0',
    ]);
    expect(stdout).toContain(
      'RD\tRegular Decision\t2027FA\topens August 1, 2026 at 12:00 AM CDT\tdeadline January 22, 2027 at 11:59 PM CST',
    );
    expect(stdout).not.toContain('grace');
    const tooEarly = await failure([
      'rounds',
      'update',
      '--code',
      'RD',
      '--deadline',
      '2026-07-01T00:00:00Z',
    ]);
    expect(tooEarly.code).not.toBe(0);
    expect(tooEarly.stderr).toContain('--deadline must be after the opening time.');
    // What start-up runs: the configuration's RD is there already, so the CLI's change stays.
    expect(await syncPartnerRounds(t.runtime.database.db, PARTNER)).toEqual([]);
    const rd = await findRound(t.runtime.database.db, 'RD');
    expect(rd?.deadline.toISOString()).toBe('2027-01-23T05:59:00.000Z');
    expect(rd?.graceMinutes).toBe(0);
  }, 30_000);

  it('concurrent adds of one code store one round; every other add is told it exists', async () => {
    const db = t.runtime.database.db;
    const attempts = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        addRound(
          db,
          {
            code: 'SP',
            name: `Spring ${i}`,
            entryTerm: '2028SP',
            opensAt: '2027-08-01T00:00:00Z',
            deadline: '2027-11-01T00:00:00Z',
            graceMinutes: 0,
          },
          PARTNER,
        ),
      ),
    );
    const added = attempts.filter((a) => a.status === 'fulfilled');
    const refused = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(added).toHaveLength(1);
    expect(refused).toHaveLength(29);
    for (const reason of refused) expect(reason).toBeInstanceOf(RoundExistsError);
    expect((await listRounds(db)).filter((r) => r.code === 'SP')).toHaveLength(1);

    // The same through the CLI's processes: four at once, each holding two of the embedded
    // database's socket connections (each is a node process on a shared machine).
    const commands = await Promise.allSettled(
      Array.from({ length: 4 }, () => cli(['rounds', 'add', ...ea({ '--code': 'TR2' })])),
    );
    expect(commands.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    for (const c of commands) {
      if (c.status === 'rejected') {
        // An unexpected error is logged on stdout: show it when the message is not the one.
        const { stderr, stdout } = c.reason as { stderr: string; stdout: string };
        expect(stderr, stdout).toContain('A round with the code "TR2" already exists.');
      }
    }
    expect((await listRounds(db)).filter((r) => r.code === 'TR2')).toHaveLength(1);
  }, 90_000);
});
