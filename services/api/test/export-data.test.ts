// The data export (issue #31) on both databases: the columns are exactly the dictionary's, every
// stored answer comes back from the CSV, JSON and NDJSON files, the checklist is flattened, a
// code with no mapping fails only its record, the identifiers are empty unless decrypted with a
// reason (one audit row per application), and --incremental writes only what changed. Then the
// command in its own process (exit codes, stderr, the dictionary's columns and mapping template)
// and the staff Exports API's data kind.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  APPLICATION_DEFINITION,
  buildDataDictionary,
  buildExportColumns,
  DEFAULT_PARTNER,
  IDENTIFIER_ANSWER_KEYS,
} from '@admissions/form';
import { createAnswerFixtures } from '@admissions/answer-view/fixtures';
import {
  STAFF_EXPORT_MESSAGES,
  type StaffExportListResponse,
  type StaffExportResponse,
} from '@admissions/api-contract';
import { applications, readAnswers } from '../src/modules/application';
import { users } from '../src/modules/auth';
import { checklistRequests, checklistWaivers, recommenders } from '../src/modules/checklist';
import { serviceAudit } from '../src/modules/service';
import { createStaffAccounts } from '../src/modules/staff/staff-accounts';
import { parseCsv } from '../src/platform/lib/csv';
import { parseCodeMapping, MappingFileError } from '../src/modules/export/data-mapping';
import { parseDataExportArgs } from '../src/modules/export/data-options';
import { runDataExport, type DataExportRun } from '../src/modules/export/data-run';
import { dataStateFile } from '../src/modules/export/data-state';
import type { DataFormat } from '../src/modules/export/data-options';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';
import { seedApplications, type SeededApplication } from './support/seed-applications';

type DataRecord = Record<string, string>;

const apiDir = path.resolve(import.meta.dirname, '..');
const STAFF_PASSWORD = 'Quartz-Meadow-Harbor-73';

/** The command as an operator types it (`npm run cli -- …`), in its own process. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd: path.resolve(apiDir, '../..'),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const COLUMNS = buildExportColumns(APPLICATION_DEFINITION, DEFAULT_PARTNER).map((c) => c.name);
const FIXTURES = createAnswerFixtures(new Date());

/** The file read back as its consumer would: header and records, every value text. */
function readDataFile(
  file: string,
  format: DataFormat,
): { header: string[]; records: DataRecord[] } {
  const text = readFileSync(file, 'utf8');
  if (format === 'csv') {
    const [head, ...rows] = parseCsv(text);
    const header = head!.fields;
    return {
      header,
      records: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r.fields[i]!]))),
    };
  }
  const records = (
    format === 'json'
      ? JSON.parse(text)
      : text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as unknown)
  ) as DataRecord[];
  for (const record of records) {
    for (const value of Object.values(record)) expect(typeof value).toBe('string');
  }
  return { header: records[0] ? Object.keys(records[0]) : [], records };
}

describe('data export options and mapping files', () => {
  it('refuses bad flags with a message', () => {
    const parse = (args: string[]) => () => parseDataExportArgs(args, '/tmp');
    expect(parse([])).toThrow(/--out FILE is required/);
    expect(parse(['--out', 'x.csv', '--format', 'xml'])).toThrow(/--format must be csv, json/);
    expect(parse(['--out', 'x', '--since', '2026-11-01T25:00Z'])).toThrow(/--since must be/);
    expect(parse(['--out', 'x', '--include-sensitive'])).toThrow(/needs --reason/);
    expect(parse(['--out', 'x', '--reason', 'why'])).toThrow(/goes with --include-sensitive/);
    expect(parse(['--out', 'x', '--system', 'banner'])).toThrow(/--system needs --map/);
    expect(parseDataExportArgs(['--out', 'a/x.ndjson'], '/tmp')).toMatchObject({
      out: '/tmp/a/x.ndjson',
      format: 'ndjson',
      status: 'submitted',
    });
    expect(
      parseDataExportArgs(
        ['--out', 'x', '--since', '2026-11-01T12:00:00+01:00', '--until', '2026-11-02'],
        '/tmp',
      ),
    ).toMatchObject({
      format: 'csv',
      since: new Date('2026-11-01T11:00:00Z'),
      until: new Date('2026-11-03T00:00:00Z'),
    });
  });

  it('reads JSON and CSV mapping files, several systems in one, and refuses what cannot be used', () => {
    const columns = new Set(COLUMNS);
    const csv = [
      'system,key,product_code,target_code,label',
      'banner,country,USA,US,United States',
      'banner,country,CAN,CA,',
      'banner,gender,F,,Female',
      'slate,country,USA,United States,',
    ].join('\r\n');
    const banner = parseCodeMapping(csv, 'm.csv', 'banner', columns);
    expect([...banner.columns.keys()]).toEqual(['country']); // empty targets map nothing
    expect(banner.columns.get('country')?.get('CAN')).toBe('CA');
    expect(() => parseCodeMapping(csv, 'm.csv', null, columns)).toThrow(/several systems/);
    expect(() => parseCodeMapping(csv, 'm.csv', 'peoplesoft', columns)).toThrow(/no system/);
    const json = JSON.stringify({ systems: { slate: { entry_term: { '2027FA': 'F27' } } } });
    expect(parseCodeMapping(json, 'm.json', null, columns).columns.get('entry_term')).toEqual(
      new Map([['2027FA', 'F27']]),
    );
    const bad =
      (text: string, name = 'm.json') =>
      () =>
        parseCodeMapping(text, name, null, columns);
    expect(bad(JSON.stringify({ systems: { b: { colour: { R: 'r' } } } }))).toThrow(
      /not columns of the export: colour/,
    );
    expect(bad('system,key,product_code,target_code\nb,gender,F,1\nb,gender,F,2', 'm.csv')).toThrow(
      /maps gender = F to both "1" and "2"/,
    );
    expect(bad('key,code\ngender,F', 'm.csv')).toThrow(MappingFileError);
    expect(bad('{"systems": [] }')).toThrow(/expected \{"systems"/);
  });
});

describe.each(availableDrivers())('data export (%s)', (driver) => {
  let t: TestRuntime;
  let seeded: SeededApplication[];
  let started: SeededApplication;
  let saver: { id: string; jar: Record<string, string> };
  const work = mkdtempSync(path.join(os.tmpdir(), 'export-data-'));
  const submittedFixtures = ['complete', 'us-citizen', 'international', 'add-another', 'unicode'];
  const awkward = 'He said "hi", then\r\nleft; =1+2';

  const db = () => t.runtime.database.db;

  function run(overrides: Partial<DataExportRun> & { out: string }) {
    return runDataExport(
      {
        format: 'csv',
        selection: { status: 'submitted', round: null, since: null, until: null, ids: null },
        incremental: false,
        mapping: null,
        sensitive: null,
        stateFile: dataStateFile(path.dirname(overrides.out), null),
        // Small pages, so paging is exercised by a handful of applications.
        pageSize: 2,
        ...overrides,
      },
      {
        db: db(),
        partner: t.runtime.partner,
        encryptionKey: t.runtime.secrets.encryptionKey,
        now: () => t.clock.now(),
      },
    );
  }

  /** Each application's answers as stored, sealed ones opened. */
  async function storedAnswers(ids: string[]) {
    const rows = await db().select().from(applications).where(inArray(applications.id, ids));
    return new Map(
      rows.map((row) => [
        row.id,
        { row, answers: readAnswers(row, t.runtime.secrets.encryptionKey) },
      ]),
    );
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    const deps = {
      db: db(),
      storage: t.runtime.storage,
      encryptionKey: t.runtime.secrets.encryptionKey,
    };
    seeded = await seedApplications(deps, {
      count: submittedFixtures.length,
      fixtures: submittedFixtures as SeededApplication['fixture'][],
    });
    const [startedOne] = await seedApplications(deps, {
      count: 1,
      fixtures: ['us-citizen'],
      submittedAt: () => null,
      emailPrefix: 'started',
    });
    started = startedOne!;
    // A value that needs every kind of CSV quoting, and one a spreadsheet would run.
    const [intl] = await db()
      .select({ answer: applications.answer })
      .from(applications)
      .where(eq(applications.id, seeded[2]!.id));
    await db()
      .update(applications)
      .set({ answer: { ...intl!.answer, preferred_name: awkward } })
      .where(eq(applications.id, seeded[2]!.id));
    // The student system's ID of one application, as import-ids stores it.
    await db()
      .update(applications)
      .set({ externalId: 'S00012345' })
      .where(eq(applications.id, seeded[1]!.id));
    // The complete application's checklist: the counselor's letter in, the teacher's waived, one
    // file the office asked for received.
    const complete = seeded[0]!.id;
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9));
    const person = { ferpaWaived: true, linkSentAt: at(2), linkExpiresAt: at(60) };
    await db()
      .insert(recommenders)
      .values([
        {
          ...person,
          applicationId: complete,
          type: 'counselor',
          name: 'Ellen Ochoa',
          email: 'ochoa@school.example.org',
          submittedAt: at(5),
          createdAt: at(2),
        },
        {
          ...person,
          applicationId: complete,
          type: 'teacher',
          name: 'Katherine Johnson',
          email: 'kj@school.example.org',
          createdAt: at(3),
        },
      ]);
    await db()
      .insert(checklistWaivers)
      .values({
        applicationId: complete,
        itemId: 'teacher-1',
        waivedBy: 'processor@staff.example.edu',
        waivedAt: at(6),
      });
    await db()
      .insert(checklistRequests)
      .values({
        applicationId: complete,
        title: 'Official transcript',
        message: 'Please send it.',
        requestedBy: 'processor@staff.example.edu',
        requestedAt: at(4),
        fileName: 'transcript.pdf',
        receivedAt: at(7),
      });
    const jar = await registerApplicant(t, 'saver@example.org');
    await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { first_name: 'Sam', last_name: 'Saver' },
      cookies: jar,
    });
    const [own] = await db()
      .select({ id: applications.id })
      .from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .where(eq(users.email, 'saver@example.org'));
    saver = { id: own!.id, jar };
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(['csv', 'json', 'ndjson'] as const)(
    'writes exactly the dictionary columns and every stored answer, as %s',
    async (format) => {
      const out = path.join(work, `all.${format}`);
      const summary = await run({ out, format });
      expect(summary).toMatchObject({
        selected: seeded.length,
        written: seeded.length,
        failed: 0,
        exitCode: 0,
      });
      const { header, records } = readDataFile(out, format);
      expect(header).toEqual(COLUMNS);
      // The dictionary's keys, in its order, are the answer columns.
      const keys = buildDataDictionary(APPLICATION_DEFINITION, t.runtime.partner).map((r) => r.key);
      expect(header.filter((h) => keys.includes(h))).toEqual(keys);
      // Submission order, then id.
      expect(records.map((r) => r.application_id)).toEqual(seeded.map((s) => s.id));

      const stored = await storedAnswers(seeded.map((s) => s.id));
      for (const record of records) {
        const { row, answers } = stored.get(record.application_id!)!;
        expect(Object.keys(record)).toEqual(COLUMNS);
        expect(record).toMatchObject({
          external_id: row.externalId ?? '',
          round: row.roundCode,
          status: 'submitted',
          submitted_at: row.submittedAt!.toISOString(),
          updated_at: row.updatedAt.toISOString(),
          version: String(row.version),
        });
        for (const key of keys) {
          const expected = IDENTIFIER_ANSWER_KEYS.includes(key) ? '' : (answers[key] ?? '');
          expect(record[key], `${record.application_id} ${key}`).toBe(expected);
        }
      }
      // The complete fixture: every one of its answers (codes and `_desc` labels) is in the file.
      const complete = records[0]!;
      const fixture = FIXTURES.complete.answers;
      expect(Object.keys(fixture).length).toBeGreaterThan(250);
      for (const [key, value] of Object.entries(fixture)) {
        // The seeding numbers the last names.
        if (key === 'last_name') expect(complete[key]).toBe(`${value} 0`);
        else if (!IDENTIFIER_ANSWER_KEYS.includes(key)) expect(complete[key], key).toBe(value);
      }
      expect(complete.birth_country_desc).toBe('Sweden');
      expect(records[2]!.preferred_name).toBe(awkward);
      expect(records.map((r) => r.external_id)).toEqual(['', 'S00012345', '', '', '']);
      if (format === 'csv') {
        // RFC 4180: quoted, quotes doubled, the line break kept; no spreadsheet apostrophe.
        expect(readFileSync(out, 'utf8')).toContain('"He said ""hi"", then\r\nleft; =1+2"');
      }
    },
  );

  it('flattens the checklist into its fixed columns', async () => {
    const out = path.join(work, 'checklist.json');
    await run({ out, format: 'json' });
    const records = readDataFile(out, 'json').records;
    expect(records[0]).toMatchObject({
      checklist_complete: 'Y',
      recommender_counselor_name: 'Ellen Ochoa',
      recommender_counselor_email: 'ochoa@school.example.org',
      recommender_counselor_status: 'received',
      recommender_counselor_received_at: '2026-11-05T09:00:00.000Z',
      recommender_teacher_1_name: 'Katherine Johnson',
      recommender_teacher_1_status: 'waived',
      recommender_teacher_1_received_at: '',
      // An optional slot nobody fills is no checklist item.
      recommender_teacher_2_name: '',
      recommender_teacher_2_status: '',
      recommender_other_1_name: '',
      recommender_other_1_status: '',
      request_count: '1',
      request_1_title: 'Official transcript',
      request_1_status: 'received',
      request_1_received_at: '2026-11-07T09:00:00.000Z',
      request_2_title: '',
    });
    // Nothing named, nothing asked: the counselor and the first teacher are awaited.
    expect(records[1]).toMatchObject({
      checklist_complete: 'N',
      recommender_counselor_name: '',
      recommender_counselor_status: 'awaiting',
      recommender_teacher_1_status: 'awaiting',
      recommender_teacher_2_status: '',
      request_count: '0',
    });
  });

  it('exports a started application without the answers its other answers hide', async () => {
    const out = path.join(work, 'everyone.ndjson');
    const summary = await run({
      out,
      format: 'ndjson',
      selection: { status: 'all', round: null, since: null, until: null, ids: null },
    });
    expect(summary.written).toBe(seeded.length + 2);
    const record = readDataFile(out, 'ndjson').records.find(
      (r) => r.application_id === started.id,
    )!;
    expect(record).toMatchObject({ status: 'started', submitted_at: '', first_name: 'Jordan' });
    for (const key of FIXTURES['us-citizen'].hiddenKeys) expect(record[key], key).toBe('');
    expect(JSON.stringify(record)).not.toContain('HIDDEN');
    // Selection by submission time, as `export` selects: the first two seconds.
    const since = await run({
      out: path.join(work, 'since.csv'),
      selection: {
        status: 'submitted',
        round: null,
        since: seeded[1]!.submittedAt,
        until: new Date(seeded[2]!.submittedAt!.getTime() + 1),
        ids: null,
      },
    });
    expect(since.written).toBe(2);
  });

  it('fails only the record with a code the mapping does not list, naming key and value', async () => {
    // Every birth country of the seeded applications mapped but Sweden (the complete fixture's).
    const stored = await storedAnswers(seeded.map((s) => s.id));
    const countries = [...stored.values()]
      .map((s) => s.answers.birth_country)
      .filter((c): c is string => Boolean(c));
    expect(countries).toContain('SWE');
    const codes = Object.fromEntries(
      countries.filter((c) => c !== 'SWE').map((c) => [c, `X-${c}`]),
    );
    const mapping = parseCodeMapping(
      JSON.stringify({ systems: { banner: { birth_country: codes } } }),
      'map.json',
      null,
      new Set(COLUMNS),
    );
    const out = path.join(work, 'mapped', 'banner.csv');
    const failures: string[] = [];
    const summary = await runDataExport(
      {
        out,
        format: 'csv',
        selection: { status: 'submitted', round: null, since: null, until: null, ids: null },
        incremental: false,
        mapping,
        sensitive: null,
        stateFile: dataStateFile(path.dirname(out), 'banner'),
        pageSize: 2,
      },
      {
        db: db(),
        partner: t.runtime.partner,
        encryptionKey: t.runtime.secrets.encryptionKey,
        onFailure: (f) => failures.push(f.message),
      },
    );
    const message = 'No mapping for birth_country = SWE in banner';
    expect(summary).toMatchObject({
      written: seeded.length - 1,
      failed: 1,
      exitCode: 3,
      failures: [{ applicationId: seeded[0]!.id, key: 'birth_country', value: 'SWE', message }],
    });
    expect(failures).toEqual([message]);
    const { records } = readDataFile(out, 'csv');
    expect(records.map((r) => r.application_id)).toEqual(seeded.slice(1).map((s) => s.id));
    for (const record of records) {
      const original = stored.get(record.application_id!)!.answers;
      expect(record.birth_country).toBe(
        original.birth_country ? `X-${original.birth_country}` : '',
      );
      // The label is the product's; only the code is translated.
      expect(record.birth_country_desc).toBe(original.birth_country_desc ?? '');
    }
    expect(readFileSync(`${out}.errors.csv`, 'utf8')).toBe(
      `application_id,key,value,message\r\n${seeded[0]!.id},birth_country,SWE,${message}\r\n`,
    );
    // The failed record is not recorded as exported: an incremental run for banner tries it again.
    const again = await runDataExport(
      {
        out,
        format: 'csv',
        selection: { status: 'submitted', round: null, since: null, until: null, ids: null },
        incremental: true,
        mapping: {
          ...mapping,
          columns: new Map([['birth_country', new Map([...Object.entries(codes), ['SWE', 'S']])]]),
        },
        sensitive: null,
        stateFile: dataStateFile(path.dirname(out), 'banner'),
      },
      { db: db(), partner: t.runtime.partner, encryptionKey: t.runtime.secrets.encryptionKey },
    );
    expect(again).toMatchObject({ written: 1, unchanged: seeded.length - 1, exitCode: 0 });
    expect(readDataFile(out, 'csv').records[0]).toMatchObject({
      application_id: seeded[0]!.id,
      birth_country: 'S',
    });
    expect(existsSync(`${out}.errors.csv`)).toBe(false);
  });

  it('leaves SSN and A-Number empty without the flag, decrypts them with it and audits each application', async () => {
    const audited = async () =>
      db().select().from(serviceAudit).where(eq(serviceAudit.action, 'sensitive-export'));
    const stored = await storedAnswers(seeded.map((s) => s.id));
    const plain = readDataFile(
      (await run({ out: path.join(work, 'plain.csv') })).outputs[0]!,
      'csv',
    ).records;
    for (const record of plain) {
      expect(record.ssn).toBe('');
      expect(record.alien_registration_number).toBe('');
      expect(record).toHaveProperty('ssn');
    }
    expect(await audited()).toHaveLength(0);

    const reason = 'Enrolment deposit received: transfer to the student system';
    const summary = await run({
      out: path.join(work, 'sensitive.json'),
      format: 'json',
      sensitive: { reason, tokenId: 'cli-export-data:test' },
    });
    const records = readDataFile(summary.outputs[0]!, 'json').records;
    const withSsn = records.filter((r) => r.ssn !== '');
    expect(withSsn.length).toBeGreaterThanOrEqual(2);
    expect(records.some((r) => r.alien_registration_number === 'A123456789')).toBe(true);
    for (const record of records) {
      const { answers } = stored.get(record.application_id!)!;
      expect(record.ssn).toBe(answers.ssn ?? '');
      expect(record.alien_registration_number).toBe(answers.alien_registration_number ?? '');
    }
    const rows = await audited();
    expect(rows.map((r) => r.applicationId).sort()).toEqual(seeded.map((s) => s.id).sort());
    for (const row of rows) {
      expect(row).toMatchObject({ reason, tokenId: 'cli-export-data:test', staffId: null });
      const { answers } = stored.get(row.applicationId)!;
      expect(row.shown.answers.sort()).toEqual(
        IDENTIFIER_ANSWER_KEYS.filter((k) => answers[k]).sort(),
      );
    }
  });

  it('writes nothing on a second incremental run, then exactly the application saved since', async () => {
    const out = path.join(work, 'feed', 'feed.csv');
    const selection = { status: 'all' as const, round: null, since: null, until: null, ids: null };
    const first = await run({ out, selection, incremental: true });
    expect(first).toMatchObject({ written: seeded.length + 2, unchanged: 0 });
    const second = await run({ out, selection, incremental: true });
    expect(second).toMatchObject({ written: 0, unchanged: seeded.length + 2, exitCode: 0 });
    expect(readDataFile(out, 'csv')).toEqual({ header: COLUMNS, records: [] });
    expect(readFileSync(out, 'utf8')).toBe(`${COLUMNS.join(',')}\r\n`);
    const json = await run({
      out: path.join(work, 'feed', 'feed.json'),
      format: 'json',
      selection,
      incremental: true,
    });
    expect(json.written).toBe(0);
    expect(readFileSync(path.join(work, 'feed', 'feed.json'), 'utf8')).toBe('[]\n');

    const saved = await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { preferred_name: 'Sammy' },
      cookies: saver.jar,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const third = await run({ out, selection, incremental: true });
    expect(third).toMatchObject({ written: 1, unchanged: seeded.length + 1 });
    const { records } = readDataFile(out, 'csv');
    expect(records.map((r) => [r.application_id, r.preferred_name, r.status])).toEqual([
      [saver.id, 'Sammy', 'started'],
    ]);
  });

  it.runIf(driver === 'postgres')(
    'as a command: exit code 3 with the failed record on stderr, 1 for bad flags; the dictionary prints the columns and the mapping template',
    async () => {
      const { rows } = await t.runtime.database.executeSql('SELECT current_database() AS name');
      const url = new URL(inject('postgresUrl')!);
      url.pathname = `/${String(rows[0]!.name)}`;
      const env = { DATABASE_URL: url.toString(), DATA_DIR: t.dataDir };

      const columns = await runCli(['dictionary', '--columns', '--format', 'csv'], env);
      expect(columns.code, columns.stderr).toBe(0);
      expect(
        parseCsv(columns.stdout)
          .slice(1)
          .map((r) => r.fields[0]),
      ).toEqual(COLUMNS);
      const template = await runCli(
        ['dictionary', '--mapping-template', '--system', 'banner', '--format', 'csv'],
        env,
      );
      expect(template.code, template.stderr).toBe(0);
      const templateLines = template.stdout.split('\r\n');
      expect(templateLines[0]).toBe('system,key,product_code,target_code,label');
      expect(templateLines).toContain('banner,birth_country,SWE,,Sweden');
      expect(templateLines).toContain('banner,entry_term,2027FA,,Fall 2027');

      // The template, filled in for birth_country except Sweden, is a mapping file as it stands.
      const mapFile = path.join(work, 'banner-map.csv');
      writeFileSync(
        mapFile,
        templateLines
          .map((line) =>
            /^banner,birth_country,(?!SWE,)([A-Z]{3}),,/.test(line)
              ? line.replace(/^banner,birth_country,([A-Z]{3}),,/, 'banner,birth_country,$1,X-$1,')
              : line,
          )
          .join('\r\n'),
      );
      const out = path.join(work, 'cli', 'banner.ndjson');
      const mapped = await runCli(['export-data', '--out', out, '--map', mapFile], env);
      expect(mapped.code, mapped.stdout + mapped.stderr).toBe(3);
      expect(mapped.stderr).toContain(
        `failed ${seeded[0]!.id}: No mapping for birth_country = SWE in banner`,
      );
      expect(mapped.stdout).toContain(
        `${seeded.length} selected: ${seeded.length - 1} written, 0 unchanged, 1 failed`,
      );
      expect(readDataFile(out, 'ndjson').records).toHaveLength(seeded.length - 1);
      expect(readFileSync(`${out}.errors.csv`, 'utf8')).toContain(
        `${seeded[0]!.id},birth_country,SWE,No mapping for birth_country = SWE in banner`,
      );

      const all = await runCli(['export-data', '--out', path.join(work, 'cli', 'all.csv')], env);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain(`${seeded.length} written`);
      const bad = await runCli(['export-data', '--out', 'x.csv', '--include-sensitive'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('--include-sensitive needs --reason TEXT');
      const invisible = await runCli(
        ['export-data', '--out', 'x.csv', '--include-sensitive', '--reason', '\u200b'],
        env,
      );
      expect(invisible.code).toBe(1);
      expect(invisible.stderr).toContain(`--reason: ${STAFF_EXPORT_MESSAGES.reasonInvisible}`);
      expect(bad.stderr).toContain('Usage: npm run cli -- export-data');
      const unknownKey = path.join(work, 'bad-map.json');
      writeFileSync(unknownKey, JSON.stringify({ systems: { b: { colour: { R: 'r' } } } }));
      const refused = await runCli(['export-data', '--out', 'y.csv', '--map', unknownKey], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('not columns of the export: colour');
    },
    120_000,
  );

  describe('from the staff Exports page', () => {
    let exporter: Record<string, string>;

    async function signIn(email: string) {
      const accounts = createStaffAccounts({
        db: db(),
        clock: t.clock,
        encryptionKey: t.runtime.secrets.encryptionKey,
      });
      const { setupToken } = await accounts.add({ email, role: 'exporter' });
      const post = (url: string, body: unknown, cookies?: Record<string, string>) =>
        t.request({ method: 'POST', url, body, cookies });
      await post('/staff/auth/setup', {
        token: setupToken,
        password: STAFF_PASSWORD,
        confirm_password: STAFF_PASSWORD,
      });
      const login = await post('/staff/auth/login', { email, password: STAFF_PASSWORD });
      const { secret } = login.json<{ enrol: { secret: string } }>().enrol;
      const code = authenticator.clone({ epoch: t.clock.now().getTime() }).generate(secret);
      const totp = await post('/staff/auth/totp', { code }, cookiesOf(login));
      expect(totp.statusCode, totp.body).toBe(200);
      return cookiesOf(totp);
    }

    async function startExport(body: object) {
      const started = await t.request({
        method: 'POST',
        url: '/staff/api/exports',
        cookies: exporter,
        body,
      });
      expect(started.statusCode, started.body).toBe(202);
      const id = started.json<StaffExportResponse>().id;
      for (let i = 0; i < 600; i++) {
        const answer = await t.request({
          method: 'GET',
          url: `/staff/api/exports/${id}`,
          cookies: exporter,
        });
        const status = answer.json<StaffExportResponse>();
        if (status.status !== 'running') return status;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('export did not finish');
    }

    beforeAll(async () => {
      exporter = await signIn('data-exporter@staff.example.edu');
    });

    it('asks for a reason, and the identifiers only in a data file', async () => {
      const start = (body: object) =>
        t.request({ method: 'POST', url: '/staff/api/exports', cookies: exporter, body });
      const noReason = await start({
        filters: {},
        format: 'csv',
        include_sensitive: true,
        reason: '  ',
      });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json<{ message: string }>().message).toBe(
        STAFF_EXPORT_MESSAGES.reasonRequired,
      );
      // A reason that shows nothing in the audit: invisible or control characters, or no word.
      for (const [hidden, message] of [
        ['\u200b', STAFF_EXPORT_MESSAGES.reasonInvisible],
        ['\u202eevil\u202c', STAFF_EXPORT_MESSAGES.reasonInvisible],
        ['ok\u0001', STAFF_EXPORT_MESSAGES.reasonInvisible],
        ['--- ...', STAFF_EXPORT_MESSAGES.reasonRequired],
      ] as const) {
        const refused = await start({
          filters: {},
          format: 'csv',
          include_sensitive: true,
          reason: hidden,
        });
        expect(refused.statusCode, hidden).toBe(400);
        expect(refused.json<{ message: string }>().message).toBe(message);
      }
      const pdf = await start({ filters: {}, format: 'zip', include_sensitive: true, reason: 'x' });
      expect(pdf.statusCode).toBe(400);
      expect(pdf.json<{ message: string }>().message).toBe(STAFF_EXPORT_MESSAGES.sensitiveDataOnly);
    });

    it('writes the data file through the same export, audits each application, then only what changed', async () => {
      const reason = 'Deposit paid: loading into the student system';
      const done = await startExport({
        filters: { status: 'submitted' },
        format: 'csv',
        include_sensitive: true,
        reason,
      });
      expect(done, done.message).toMatchObject({
        status: 'completed',
        format: 'csv',
        include_sensitive: true,
        selected: seeded.length,
        rendered: seeded.length,
        failed: 0,
      });
      const sensitiveRows = await db()
        .select()
        .from(serviceAudit)
        .where(eq(serviceAudit.tokenId, `export:${done.id}`));
      expect(sensitiveRows.map((r) => r.applicationId).sort()).toEqual(
        seeded.map((s) => s.id).sort(),
      );
      for (const row of sensitiveRows) {
        expect(row).toMatchObject({
          action: 'sensitive-export',
          reason,
          staffEmail: 'data-exporter@staff.example.edu',
        });
      }
      const file = await t.request({ method: 'GET', url: done.download_url, cookies: exporter });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(file.headers['content-disposition']).toMatch(
        /^attachment; filename="data-export-.*\.csv"$/,
      );
      const [head, ...records] = parseCsv(file.body);
      expect(head!.fields).toEqual(COLUMNS);
      expect(records.map((r) => r.fields[0])).toEqual(seeded.map((s) => s.id));
      const ssnAt = COLUMNS.indexOf('ssn');
      const stored = await storedAnswers(seeded.map((s) => s.id));
      for (const record of records) {
        expect(record.fields[ssnAt]).toBe(stored.get(record.fields[0]!)!.answers.ssn ?? '');
      }
      // The download is a read of each application, as a PDF export's is.
      const downloads = (
        await db().select().from(serviceAudit).where(eq(serviceAudit.action, 'data-export'))
      ).filter((r) => r.tokenId.startsWith(`export:${done.id}:`));
      expect(downloads.map((r) => r.applicationId).sort()).toEqual(seeded.map((s) => s.id).sort());
      expect(downloads[0]!.shown.answers).toContain('first_name');

      // This exporter's next data export: nothing changed, nothing written; forced: all again.
      const again = await startExport({ filters: { status: 'submitted' }, format: 'ndjson' });
      expect(again).toMatchObject({
        status: 'completed',
        include_sensitive: false,
        rendered: 0,
        unchanged: seeded.length,
      });
      // The list marks which of this exporter's files hold the identifiers.
      const list = await t.request({ method: 'GET', url: '/staff/api/exports', cookies: exporter });
      const listed = list.json<StaffExportListResponse>().exports;
      expect(Object.fromEntries(listed.map((e) => [e.id, e.include_sensitive]))).toEqual({
        [done.id]: true,
        [again.id]: false,
      });
      const empty = await t.request({ method: 'GET', url: again.download_url, cookies: exporter });
      expect(empty.headers['content-type']).toBe('application/x-ndjson');
      expect(empty.body).toBe('');
      const forced = await startExport({
        filters: { status: 'submitted' },
        format: 'json',
        force: true,
      });
      expect(forced.rendered).toBe(seeded.length);
      const json = await t.request({ method: 'GET', url: forced.download_url, cookies: exporter });
      const parsed = json.json<DataRecord[]>();
      expect(parsed.map((r) => r.application_id)).toEqual(seeded.map((s) => s.id));
      expect(parsed.every((r) => r.ssn === '')).toBe(true);
    });
  });
});
