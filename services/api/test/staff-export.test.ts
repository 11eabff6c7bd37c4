// Exports from the staff area (issue #18) on both drivers: the exporter role only, the existing
// pg-boss export job run by the in-process worker, progress, the zip and the combined PDF, and
// incremental per exporter (a second export renders nothing that did not change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { authenticator } from 'otplib';
import {
  STAFF_EXPORT_MESSAGES,
  type StaffExportListResponse,
  type StaffExportResponse,
} from '@admissions/api-contract';
import { users } from '../src/modules/auth';
import { serviceAudit } from '../src/modules/service';
import { staffExports, staffMembers } from '../src/modules/staff/schema';
import { createLogger } from '../src/platform/logging/logger';
import { startRuntime } from '../src/boot/runtime';
import { createStaffAccounts } from '../src/modules/staff/staff-accounts';
import {
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const STAFF_PASSWORD = 'Quartz-Meadow-Harbor-73';

describe.each(availableDrivers())('staff exports (%s)', (driver) => {
  let t: TestRuntime;
  let exporter: Record<string, string>;
  let reader: Record<string, string>;
  let zoeId: string;
  const secrets = new Map<string, string>();

  async function signIn(email: string, role: 'reader' | 'exporter') {
    const accounts = createStaffAccounts({
      db: t.runtime.database.db,
      clock: t.clock,
      encryptionKey: t.runtime.secrets.encryptionKey,
    });
    const { setupToken } = await accounts.add({ email, role });
    const post = (url: string, body: unknown, cookies?: Record<string, string>) =>
      t.request({ method: 'POST', url, body, cookies });
    await post('/staff/auth/setup', {
      token: setupToken,
      password: STAFF_PASSWORD,
      confirm_password: STAFF_PASSWORD,
    });
    const login = await post('/staff/auth/login', { email, password: STAFF_PASSWORD });
    const { secret } = login.json<{ enrol: { secret: string } }>().enrol;
    secrets.set(email, secret);
    const code = authenticator.clone({ epoch: t.clock.now().getTime() }).generate(secret);
    const totp = await post('/staff/auth/totp', { code }, cookiesOf(login));
    expect(totp.statusCode, totp.body).toBe(200);
    return cookiesOf(totp);
  }

  /** A later sign-in of an enrolled member (after the clock moved past the session's life). */
  async function signInAgain(email: string): Promise<Record<string, string>> {
    const login = await t.request({
      method: 'POST',
      url: '/staff/auth/login',
      body: { email, password: STAFF_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const code = authenticator
      .clone({ epoch: t.clock.now().getTime() })
      .generate(secrets.get(email)!);
    const totp = await t.request({
      method: 'POST',
      url: '/staff/auth/totp',
      body: { code },
      cookies: cookiesOf(login),
    });
    expect(totp.statusCode, totp.body).toBe(200);
    return cookiesOf(totp);
  }

  async function waitFor(id: string, jar: Record<string, string>): Promise<StaffExportResponse> {
    for (let i = 0; i < 600; i++) {
      const answer = await t.request({
        method: 'GET',
        url: `/staff/api/exports/${id}`,
        cookies: jar,
      });
      const body = answer.json<StaffExportResponse>();
      if (body.status !== 'running') return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('export did not finish');
  }

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    for (const [email, answers] of [
      ['zoe@example.org', { first_name: 'Zoë', last_name: 'Østergaard' }],
      ['ada@example.org', { first_name: 'Ada', last_name: 'Lovelace' }],
    ] as const) {
      const jar = await registerApplicant(t, email);
      await t.request({ method: 'PUT', url: '/api/answer', body: answers, cookies: jar });
    }
    const [zoe] = await t.runtime.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'zoe@example.org'));
    zoeId = zoe!.id;
    await t.runtime.database.db.execute(
      sql`UPDATE applications SET submitted_at = '2026-11-20T10:00:00Z', web_status = '{started,validating,submitted}' WHERE user_id = ${zoeId}`,
    );
    exporter = await signIn('exporter@staff.example.edu', 'exporter');
    reader = await signIn('reader@staff.example.edu', 'reader');
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('refuses readers: 403 on starting an export', async () => {
    const refused = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: reader,
      body: { filters: { status: 'submitted' }, format: 'zip' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('exports the submitted applications as a zip through the job, then only what changed', async () => {
    const started = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: exporter,
      body: { filters: { status: 'submitted' }, format: 'zip' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const first = started.json<StaffExportResponse>();
    expect(first).toMatchObject({ status: 'running', selected: 1, download_url: '' });
    // Another exporter (or a reader) does not see it.
    expect(
      (await t.request({ method: 'GET', url: `/staff/api/exports/${first.id}`, cookies: reader }))
        .statusCode,
    ).toBe(403);

    const done = await waitFor(first.id, exporter);
    expect(done, done.message).toMatchObject({
      status: 'completed',
      selected: 1,
      done: 1,
      rendered: 1,
      failed: 0,
    });
    const zip = await t.request({ method: 'GET', url: done.download_url, cookies: exporter });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const pdfs = Object.keys(files).filter((name) => name.endsWith('.pdf'));
    expect(pdfs).toHaveLength(1);
    expect(pdfs[0]).toContain(zoeId);
    expect(Buffer.from(files[pdfs[0]!]!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.from(files['index.csv']!).toString()).toContain(zoeId);
    expect(Object.keys(files)).toContain('index.json');

    // Incremental for this exporter: nothing changed, nothing rendered; the combined PDF still has it.
    const again = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: exporter,
      body: { filters: { status: 'submitted' }, format: 'combined' },
    });
    const second = await waitFor(again.json<StaffExportResponse>().id, exporter);
    expect(second).toMatchObject({ status: 'completed', rendered: 0, unchanged: 1 });
    const combined = await t.request({
      method: 'GET',
      url: second.download_url,
      cookies: exporter,
    });
    expect(combined.headers['content-type']).toBe('application/pdf');
    expect(combined.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // Forced: rendered again.
    const forced = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: exporter,
      body: { filters: { status: 'submitted' }, format: 'zip', force: true },
    });
    expect((await waitFor(forced.json<StaffExportResponse>().id, exporter)).rendered).toBe(1);
  }, 120_000);
  it('selects the submitted applications when no status is given, every status only when asked', async () => {
    // Ada has pressed Submit but is still being validated: not what an export takes by default.
    await t.runtime.database.db.execute(
      sql`UPDATE applications SET web_status = '{started,validating}' WHERE user_id <> ${zoeId}`,
    );
    const start = async (filters: Record<string, string>) => {
      const started = await t.request({
        method: 'POST',
        url: '/staff/api/exports',
        cookies: exporter,
        body: { filters, format: 'zip' },
      });
      expect(started.statusCode, started.body).toBe(202);
      return waitFor(started.json<StaffExportResponse>().id, exporter);
    };
    const byDefault = await start({});
    expect(byDefault).toMatchObject({ status: 'completed', selected: 1 });
    // Recorded as what it took, so the exports list says "Submitted".
    expect(byDefault.filters).toEqual({ status: 'submitted' });
    const everything = await start({ status: 'all' });
    expect(everything).toMatchObject({ status: 'completed', selected: 2 });
    expect(everything.filters).toEqual({ status: 'all' });
    expect((await start({ status: 'validating' })).selected).toBe(1);
  }, 120_000);

  it('writes one service_audit row per application in the file each time an export is downloaded', async () => {
    const started = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: exporter,
      body: { filters: { status: 'submitted' }, format: 'zip', force: true },
    });
    const done = await waitFor(started.json<StaffExportResponse>().id, exporter);
    expect(done.status, done.message).toBe('completed');
    const db = t.runtime.database.db;
    const exportRows = () =>
      db
        .select()
        .from(serviceAudit)
        .where(sql`${serviceAudit.tokenId} LIKE ${`export:${done.id}:%`}`);
    expect(await exportRows()).toHaveLength(0);

    const zip = await t.request({ method: 'GET', url: done.download_url, cookies: exporter });
    expect(zip.statusCode).toBe(200);
    const rows = await exportRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      applicationId: zoeId,
      action: 'pdf',
      staffEmail: 'exporter@staff.example.edu',
    });
    expect(rows[0]!.shown.answers).toEqual(expect.arrayContaining(['first_name', 'last_name']));

    await t.request({ method: 'GET', url: done.download_url, cookies: exporter });
    expect(await exportRows()).toHaveLength(2);

    // Without the list of what it holds (an export finished by an older version), no download.
    const [row] = await db.select().from(staffExports).where(eq(staffExports.id, done.id));
    rmSync(`${row!.filePath!}.audit.json`);
    const refused = await t.request({ method: 'GET', url: done.download_url, cookies: exporter });
    expect(refused.statusCode).toBe(410);
    expect(refused.json<{ message: string }>().message).toBe(STAFF_EXPORT_MESSAGES.unaudited);
    expect(await exportRows()).toHaveLength(2);
  }, 120_000);

  it('deletes an export file after the retention period and says so; the download answers 410', async () => {
    const started = await t.request({
      method: 'POST',
      url: '/staff/api/exports',
      cookies: exporter,
      body: { filters: { status: 'submitted' }, format: 'combined' },
    });
    const done = await waitFor(started.json<StaffExportResponse>().id, exporter);
    expect(done.status, done.message).toBe('completed');
    const [row] = await t.runtime.database.db
      .select()
      .from(staffExports)
      .where(eq(staffExports.id, done.id));
    const file = row!.filePath!;
    expect(existsSync(file)).toBe(true);
    // The exporter's folder: the file, the rendered application PDFs and the state of the run.
    const folder = path.dirname(file);
    const kept = () => (existsSync(folder) ? readdirSync(folder) : []);
    expect(kept()).toContain('.export-state.json');
    expect(kept().filter((name) => name.endsWith('.pdf')).length).toBeGreaterThan(1);

    t.clock.advance(6 * 24 * 60 * 60 * 1000);
    let jar = await signInAgain('exporter@staff.example.edu');
    const within = await t.request({ method: 'GET', url: '/staff/api/exports', cookies: jar });
    expect(
      within.json<StaffExportListResponse>().exports.find((e) => e.id === done.id),
    ).toMatchObject({ status: 'completed' });
    expect(existsSync(file)).toBe(true);

    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    jar = await signInAgain('exporter@staff.example.edu');
    const listed = await t.request({ method: 'GET', url: '/staff/api/exports', cookies: jar });
    expect(listed.statusCode).toBe(200);
    expect(
      listed.json<StaffExportListResponse>().exports.find((e) => e.id === done.id),
    ).toMatchObject({
      status: 'expired',
      message: STAFF_EXPORT_MESSAGES.expired,
      download_url: '',
    });
    expect(existsSync(file)).toBe(false);
    // Nothing else of it is left behind either: no application PDF, no state file.
    expect(kept()).toEqual([]);
    const gone = await t.request({ method: 'GET', url: done.download_url, cookies: jar });
    expect(gone.statusCode).toBe(410);
    expect(gone.json<{ message: string }>().message).toBe(STAFF_EXPORT_MESSAGES.expired);
    exporter = jar;
  }, 120_000);

  it.runIf(driver === 'postgres')(
    'marks an export left running by a stopped server as failed when the server starts',
    async () => {
      const db = t.runtime.database.db;
      const [member] = await db
        .select({ id: staffMembers.id })
        .from(staffMembers)
        .where(eq(staffMembers.email, 'exporter@staff.example.edu'));
      // What a server killed in the middle of an export leaves behind.
      const [left] = await db
        .insert(staffExports)
        .values({
          staffId: member!.id,
          format: 'zip',
          filters: { status: 'submitted' },
          status: 'running',
          selected: 1,
          createdAt: t.clock.now(),
        })
        .returning();
      const refused = await t.request({
        method: 'POST',
        url: '/staff/api/exports',
        cookies: exporter,
        body: { filters: { status: 'submitted' }, format: 'zip' },
      });
      expect(refused.statusCode).toBe(409);

      // The next start of a server on the same database.
      const restarted = await startRuntime(t.config, {
        logger: createLogger('silent'),
        clock: t.clock,
      });
      try {
        const status = await restarted.app.inject({
          method: 'GET',
          url: `/staff/api/exports/${left!.id}`,
          cookies: exporter,
        });
        expect(status.json<StaffExportResponse>()).toMatchObject({
          status: 'failed',
          message: STAFF_EXPORT_MESSAGES.interrupted,
        });
        const again = await restarted.app.inject({
          method: 'POST',
          url: '/staff/api/exports',
          cookies: exporter,
          headers: { 'content-type': 'application/json' },
          payload: { filters: { status: 'submitted' }, format: 'zip' },
        });
        expect(again.statusCode, again.body).toBe(202);
      } finally {
        await restarted.close();
      }
    },
    120_000,
  );
});
