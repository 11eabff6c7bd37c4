// The staff side of admission rounds (docs/rounds.md "Staff"): GET /staff/api/rounds with its
// counts, the round filter of the staff list, its counts, GET /service/applications, the staff
// export and `export`'s selection, and the staff PDF's cover naming the round. Needs the
// applications' round_code and id, which the rounds migration adds (it fails before it: no such
// column).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_PARTNER } from '@admissions/form';
import type { ApplicationCover } from '@admissions/answer-view';
import { addRound } from '../src/modules/rounds';
import { createApiKey } from '../src/modules/staff';
import { selectApplications } from '../src/modules/export/selection';
import { parseExportArgs, ExportUsageError } from '../src/modules/export/options';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';
import { buildDocumentPdf, seedApplications } from './support/seed-applications';
import { enrolStaffMember } from './support/staff-enrolment';

const ROUND = {
  entryTerm: '2027FA',
  opensAt: '2026-08-01T00:00:00-05:00',
  graceMinutes: 0,
};

describe.each(availableDrivers())('rounds in the staff area (%s)', (driver) => {
  let t: TestRuntime;
  let jar: Record<string, string>;
  let apiKey: string;
  const covers: ApplicationCover[] = [];
  const emailsIn: Record<string, string[]> = { EA: [], RD: [] };

  const db = () => t.runtime.database.db;
  const get = (url: string, headers?: Record<string, string>) =>
    t.request({ method: 'GET', url, cookies: jar, headers });

  beforeAll(async () => {
    const blank = await buildDocumentPdf('Cover');
    t = await createTestRuntime(
      driver,
      {},
      {
        // The cover the renderer is handed; the tagged renderer's test shows it prints the line.
        renderPdf: async (_view, cover) => {
          covers.push(cover);
          return blank;
        },
      },
    );
    await addRound(
      db(),
      { ...ROUND, code: 'EA', name: 'Early Action', deadline: '2026-11-01T23:59:00-06:00' },
      DEFAULT_PARTNER,
    );
    await addRound(
      db(),
      { ...ROUND, code: 'RD', name: 'Regular Decision', deadline: '2027-01-15T23:59:00-06:00' },
      DEFAULT_PARTNER,
    );
    const seeded = await seedApplications(
      { db: db(), storage: t.runtime.storage, encryptionKey: t.runtime.secrets.encryptionKey },
      {
        count: 5,
        fixtures: ['us-citizen'],
        emailPrefix: `rounds-${driver}`,
        // 0, 2, 4 submitted.
        submittedAt: (i) => (i % 2 === 0 ? new Date('2026-11-20T10:00:00Z') : null),
      },
    );
    // EA: the first three (two submitted); RD: the other two (one submitted).
    seeded.forEach((s, i) => emailsIn[i < 3 ? 'EA' : 'RD']!.push(s.email));
    for (const [round, emails] of Object.entries(emailsIn)) {
      await db().execute(sql`
        UPDATE applications SET round_code = ${round}
        WHERE user_id IN (SELECT id FROM users WHERE email IN ${emails})`);
    }
    ({ jar } = await enrolStaffMember(t, `rounds.${driver}@staff.example.edu`, 'exporter'));
    ({ key: apiKey } = await createApiKey(db(), {
      name: 'registrar',
      scope: 'read',
      now: t.clock.now(),
    }));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('GET /staff/api/rounds lists every round by deadline with its applications and submitted counts', async () => {
    const answer = await get('/staff/api/rounds');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body.time_zone).toBe(DEFAULT_PARTNER.timeZone);
    const byCode = Object.fromEntries(
      (body.rounds as { code: string }[]).map((round) => [round.code, round]),
    );
    expect(byCode.EA).toEqual({
      code: 'EA',
      name: 'Early Action',
      entry_term: '2027FA',
      opens_at: '2026-08-01T05:00:00.000Z',
      deadline: '2026-11-02T05:59:00.000Z',
      closes_at: '2026-11-02T05:59:00.000Z',
      // The test clock is November 22, 2026.
      open: false,
      applications: 3,
      submitted: 2,
    });
    expect(byCode.RD).toMatchObject({ open: true, applications: 2, submitted: 1 });
    const codes = (body.rounds as { code: string }[]).map((r) => r.code);
    expect(codes.indexOf('EA')).toBeLessThan(codes.indexOf('RD'));
    // Staff only.
    expect((await t.request({ method: 'GET', url: '/staff/api/rounds' })).statusCode).toBe(401);
  });

  it('the staff list and GET /service/applications filter by round, with counts and a round column', async () => {
    const listed = await get('/staff/api/applications?round=EA&page_size=100');
    expect(listed.statusCode, listed.body).toBe(200);
    const list = listed.json();
    expect(list.counts).toEqual({ started: 1, validating: 0, submitted: 2 });
    expect(list.total).toBe(3);
    expect(list.rows.map((r: { email: string }) => r.email).sort()).toEqual(
      [...emailsIn.EA!].sort(),
    );
    expect(new Set(list.rows.map((r: { round: string }) => r.round))).toEqual(new Set(['EA']));
    const submittedRd = (await get('/staff/api/applications?round=RD&status=submitted')).json();
    expect(submittedRd.total).toBe(1);
    expect(submittedRd.rows[0].round).toBe('RD');
    const none = (await get('/staff/api/applications?round=TR')).json();
    expect([none.total, none.rows]).toEqual([0, []]);
    const bad = await get('/staff/api/applications?round=no%20such');
    expect(bad.statusCode).toBe(400);

    const served = await t.request({
      method: 'GET',
      url: '/service/applications?round=RD',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(served.statusCode, served.body).toBe(200);
    expect(
      served
        .json()
        .rows.map((r: { email: string }) => r.email)
        .sort(),
    ).toEqual([...emailsIn.RD!].sort());
  });

  it("export's selection takes --round, and refuses a malformed one before touching anything", async () => {
    const selected = await selectApplications(db(), {
      status: 'all',
      round: 'RD',
      since: null,
      until: null,
      ids: null,
    });
    expect(selected.applications.map((a) => a.email).sort()).toEqual([...emailsIn.RD!].sort());
    expect(parseExportArgs(['--out', 'x', '--round', 'EA'], '/tmp', 2).round).toBe('EA');
    expect(() => parseExportArgs(['--out', 'x', '--round', 'E A'], '/tmp', 2)).toThrowError(
      ExportUsageError,
    );
  });

  it('the staff export selects the round it is given', async () => {
    const started = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: jar,
      body: { filters: { round: 'EA', status: 'all' }, format: 'zip' },
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ selected: 3, filters: { round: 'EA' } });
  });

  it("the staff PDF's cover names the round and its entry term", async () => {
    const [row] = (
      await db().execute<{ id: string }>(sql`
        SELECT a.id FROM applications a JOIN users u ON u.id = a.user_id
        WHERE u.email = ${emailsIn.RD![0]!}`)
    ).rows;
    const before = covers.length;
    const pdf = await get(`/staff/api/applications/${row!.id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    // The export started above renders its own covers meanwhile (its jobs start at once).
    const staffCover = covers.slice(before).find((cover) => cover.applicationId === row!.id);
    expect(staffCover?.round).toBe('Regular Decision, Fall 2027');
  }, 60_000);
});
