// The student system's IDs coming back (issue #31), on both drivers: the API key of scope
// `write-ids` (which writes nothing else), `npm run cli -- import-ids` with 1,000 rows run as the
// operator runs it, the staff list and search by the ID, and 30 feeds at once for one ID.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { StaffListResponse } from '@admissions/api-contract';
import { createApiKey } from '../src/modules/staff';
import { startPgliteSocket } from '../src/platform/db/pglite-socket';
import { cliNodeArgs } from './support/process-stack';
import { enrolStaffMember } from './support/staff-enrolment';
import { pdfText } from './support/pdf-inspect';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');

describe.each(availableDrivers())('external IDs (%s)', (driver) => {
  let t: TestRuntime;
  let stopSocket: (() => Promise<void>) | undefined;
  let files: string;
  const keys: Record<string, string> = {};
  let ids: string[] = [];

  const db = () => t.runtime.database.db;
  const put = (id: string, externalId: string, key: string) =>
    t.request({
      method: 'PUT',
      url: `/service/applications/${id}/external-id`,
      body: { external_id: externalId },
      headers: { authorization: `Bearer ${key}` },
    });

  beforeAll(async () => {
    files = mkdtempSync(path.join(os.tmpdir(), 'import-ids-'));
    t = await createTestRuntime(driver);
    if (t.runtime.database.pglite) {
      stopSocket = await startPgliteSocket(t.runtime.database.pglite, t.dataDir);
    }
    // 1,040 applicants with an application each, made in one statement (the sign-up path is
    // tested elsewhere; this is about the feed).
    await db().execute(sql`
      WITH u AS (
        INSERT INTO users (email, password_hash, confirmed_at)
        SELECT 'applicant' || n || '@example.org', 'x', now() FROM generate_series(1, 1040) n
        RETURNING id, email
      )
      INSERT INTO applications (user_id, round_code, answer)
      SELECT u.id, (SELECT code FROM rounds ORDER BY deadline LIMIT 1),
        jsonb_build_object('first_name', 'Student', 'last_name', split_part(u.email, '@', 1))
      FROM u`);
    const rows = await db().execute<{ id: string }>(
      sql`SELECT a.id FROM applications a JOIN users u ON u.id = a.user_id ORDER BY u.email`,
    );
    ids = rows.rows.map((r) => r.id);
    for (const scope of ['read', 'write-ids'] as const) {
      keys[scope] = (await createApiKey(db(), { name: scope, scope, now: t.clock.now() })).key;
    }
  }, 120_000);

  afterAll(async () => {
    await stopSocket?.();
    await t?.close();
    rmSync(files, { recursive: true, force: true });
  });

  /** `npm run cli -- import-ids --file FILE` as an operator runs it: exit code and output. */
  const importIds = (file: string) =>
    run(process.execPath, cliNodeArgs(['import-ids', '--file', file]), {
      cwd: apiRoot,
      env: {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrl ?? '',
        SECRET_KEY: '',
        LOG_LEVEL: 'silent',
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('stores an ID with a write-ids key; any other key gets 403, and the key writes nothing else', async () => {
    const refused = await put(ids[0]!, 'A00000001', keys.read!);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('API_KEY_SCOPE');
    const stored = await put(ids[0]!, 'A00000001', keys['write-ids']!);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ application_id: ids[0], external_id: 'A00000001' });
    // The key opens nothing else: not the list, not a token.
    const list = await t.request({
      method: 'GET',
      url: '/service/applications',
      headers: { authorization: `Bearer ${keys['write-ids']}` },
    });
    expect(list.statusCode).toBe(403);
    const token = await t.request({
      method: 'POST',
      url: '/service/tokens',
      body: { application_id: ids[0] },
      headers: { authorization: `Bearer ${keys['write-ids']}` },
    });
    expect(token.statusCode).toBe(403);
    const taken = await put(ids[1]!, 'A00000001', keys['write-ids']!);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(
      'The student system ID "A00000001" already belongs to another application.',
    );
    const unknown = await put('00000000-0000-4000-8000-000000000000', 'B1', keys['write-ids']!);
    expect(unknown.statusCode).toBe(404);
    const bad = await put(ids[1]!, 'no spaces allowed', keys['write-ids']!);
    expect(bad.statusCode).toBe(400);
    // The same ID in another letter case is the same ID.
    const cased = await put(ids[1]!, 'a00000001', keys['write-ids']!);
    expect(cased.statusCode).toBe(409);
  });

  it("prints the ID on the staff PDF's cover", async () => {
    const { jar } = await enrolStaffMember(t, 'cover@staff.example.edu', 'reader');
    const pdf = await t.request({
      method: 'GET',
      url: `/staff/api/applications/${ids[0]}/pdf`,
      cookies: jar,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain('Student system ID: A00000001');
  }, 120_000);

  it('gives one ID to one application when 30 feeds send it at once', async () => {
    const answers = await Promise.all(
      ids.slice(1000, 1030).map((id) => put(id, 'RACE-1', keys['write-ids']!)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(29);
  });

  it('imports 1,000 rows with the CLI, reports the bad ones, and staff find an application by its ID', async () => {
    const lines = ['application_id,external_id'];
    ids.slice(0, 1000).forEach((id, i) => lines.push(`${id},S${String(i).padStart(7, '0')}`));
    lines.push('not-an-id,S9999999', `${ids[1010]},S0000005`);
    const file = path.join(files, 'ids.csv');
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    const outcome = await importIds(file);
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toContain('1000 stored, 0 unchanged, 2 refused.');
    expect(outcome.stdout).toContain('line 1002: "not-an-id" is not an application id');
    expect(outcome.stdout).toContain('line 1003: "S0000005" is also on line 7');
    const stored = await db().execute<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM applications WHERE external_id LIKE 'S%'`,
    );
    expect(Number(stored.rows[0]!.n)).toBe(1000);

    const { jar } = await enrolStaffMember(t, 'reader@staff.example.edu', 'reader');
    for (const q of ['S0000737', 's0000737']) {
      const found = await t.request({
        method: 'GET',
        url: `/staff/api/applications?status=started&q=${q}`,
        cookies: jar,
      });
      const body = found.json<StaffListResponse>();
      expect(body.rows.map((r) => [r.id, r.external_id])).toEqual([[ids[737], 'S0000737']]);
    }
  }, 120_000);

  it('refuses a file with a quoted field never closed, naming its line, and stores nothing', async () => {
    // Read leniently, the open quote would swallow every later row into one field: rows lost
    // without a word. The file is refused whole instead.
    const file = path.join(files, 'broken.csv');
    writeFileSync(
      file,
      [
        'application_id,external_id',
        `${ids[1020]},S1100000`,
        `${ids[1021]},"S1101000`,
        `${ids[1022]},S1102000`,
        '',
      ].join('\n'),
    );
    const outcome = await importIds(file);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain(
      'Line 3: a quoted field opened on this line is never closed (a stray double quote?), so the file cannot be read past it. Nothing was stored.',
    );
    const stored = await db().execute<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM applications WHERE external_id LIKE 'S11%'`,
    );
    expect(Number(stored.rows[0]!.n)).toBe(0);
  });
});
