// GET /api/pdf end to end on both databases: a job renders the application (answers, then the
// converted documents), cached per version of the application; the short-lived link downloads it
// for its owner only.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { SERVICE_MESSAGES, type ApplicationPdfResponse } from '@admissions/api-contract';
import { DEFAULT_PARTNER } from '@admissions/form';
import { applicationPdfs } from '../src/modules/print';
import { applications } from '../src/modules/application';
import { serviceAudit } from '../src/modules/service';
import { users } from '../src/modules/auth';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import { pdfText } from './support/pdf-inspect';
import { buildPdf } from './support/document-fixtures';
import { createUploadClient } from './support/upload-client';
import {
  availableDrivers,
  primaryDriver,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const DOC = 'personal_statement_doc';

async function userIdOf(t: TestRuntime, email: string): Promise<string> {
  const [row] = await t.runtime.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

function getPdf(t: TestRuntime, jar: Record<string, string>) {
  return t.request({ method: 'GET', url: '/api/pdf', cookies: jar });
}

/** Polls like the SPA (faster) until the first final status. */
async function waitForPdf(
  t: TestRuntime,
  jar: Record<string, string>,
  // The first render of a runtime also starts and warms its sandbox child, under tsx here.
  timeoutMs = 50_000,
): Promise<ApplicationPdfResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await getPdf(t, jar);
    expect(response.statusCode).toBe(200);
    const body = response.json() as ApplicationPdfResponse;
    if (body.status !== 'UNPROCESSED' && body.status !== 'IN_PROGRESS') return body;
    if (Date.now() > deadline) throw new Error(`still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function countJobs(t: TestRuntime, applicationId: string): Promise<number> {
  const { rows } = await t.runtime.database.executeSql(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'render-application-pdf' AND data->>'applicationId' = $1`,
    [applicationId],
  );
  return Number(rows[0]?.n);
}

async function versionOf(t: TestRuntime, userId: string): Promise<number> {
  const [row] = await t.runtime.database.db
    .select({ version: applications.version })
    .from(applications)
    .where(eq(applications.userId, userId));
  return row?.version ?? -1;
}

async function pdfRow(t: TestRuntime, userId: string) {
  const [row] = await t.runtime.database.db
    .select()
    .from(applicationPdfs)
    .where(eq(applicationPdfs.applicationId, userId));
  return row;
}

describe.each(availableDrivers())('application PDF (%s)', (driver) => {
  let t: TestRuntime;
  let client: ReturnType<typeof createUploadClient>;
  let counter = 0;
  const fresh = async (answers: Record<string, string>) => {
    const email = `pdf${++counter}.${driver}@example.org`;
    const jar = await registerApplicant(t, email);
    const saved = await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: answers,
      cookies: jar,
    });
    expect(saved.statusCode).toBe(200);
    return { jar, email, id: await userIdOf(t, email) };
  };

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    client = createUploadClient(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('needs a session', async () => {
    const response = await t.request({ method: 'GET', url: '/api/pdf' });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toEqual(expect.any(String));
  });

  it('is made by a job, documents appended, and downloads for its owner only', async () => {
    const zoe = await fresh({ first_name: 'Zoë', last_name: 'Łukasz', city: 'Kraków' });
    const other = await fresh({ first_name: 'Eve' });
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/tabs',
          body: { tab_id: 'personal_statement', chosen_tab: 'upload' },
          cookies: zoe.jar,
        })
      ).statusCode,
    ).toBe(200);
    await client.upload(
      zoe.jar,
      DOC,
      'statement.pdf',
      await buildPdf('Statement of purpose XYZZY'),
    );
    expect((await client.waitForResult(zoe.jar, DOC)).status).toBe('COMPLETED');

    const first = (await getPdf(t, zoe.jar)).json() as ApplicationPdfResponse;
    expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(first.status);
    expect(first.url).toBe('');
    const done = await waitForPdf(t, zoe.jar);
    expect(done).toEqual({
      status: 'COMPLETED',
      url: expect.stringMatching(/^\/api\/pdf\/file\?u=[0-9a-f-]{36}&v=\d+&e=\d+&s=[\w-]{43}$/),
      message: SERVICE_MESSAGES.pdfReady,
    });

    const download = await t.request({ method: 'GET', url: done.url, cookies: zoe.jar });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['cache-control']).toBe('no-store');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="lukasz_zoe_${zoe.id}.pdf"`,
    );
    const pdf = await PDFDocument.load(download.rawPayload);
    expect(pdf.getPageCount()).toBeGreaterThan(2);
    const text = pdfText(download.rawPayload);
    expect(text).toContain('Zoë Łukasz');
    expect(text).toContain('Kraków');
    // The converted document, appended after the answers.
    expect(text).toContain('Statement of purpose XYZZY');
    expect(text.indexOf('Statement of purpose XYZZY')).toBeGreaterThan(text.indexOf('Kraków'));

    // Another applicant's session, no session, a forged signature, a missing field.
    const foreign = await t.request({ method: 'GET', url: done.url, cookies: other.jar });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(SERVICE_MESSAGES.linkInvalid);
    expect((await t.request({ method: 'GET', url: done.url })).statusCode).toBe(401);
    const forged = done.url.replace(/s=([\w-])/, (_, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);
    expect((await t.request({ method: 'GET', url: forged, cookies: zoe.jar })).statusCode).toBe(
      403,
    );
    const otherUser = done.url.replace(zoe.id, other.id);
    expect(
      (await t.request({ method: 'GET', url: otherUser, cookies: other.jar })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: '/api/pdf/file?u=x', cookies: zoe.jar })).statusCode,
    ).toBe(400);

    // Five minutes later the link is dead; a new GET /api/pdf hands out a fresh one.
    t.clock.advance(5 * 60_000 + 1000);
    const expired = await t.request({ method: 'GET', url: done.url, cookies: zoe.jar });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(SERVICE_MESSAGES.linkExpired);
    const again = (await getPdf(t, zoe.jar)).json() as ApplicationPdfResponse;
    expect(again.status).toBe('COMPLETED');
    expect((await t.request({ method: 'GET', url: again.url, cookies: zoe.jar })).statusCode).toBe(
      200,
    );
  });

  it('is the applicant’s copy: the institution on the cover, no empty blocks, no tab label', async () => {
    const lee = await fresh({
      first_name: 'Lee',
      last_name: 'Park',
      parent_relationship: 'M',
      parent_first_name: 'Mina',
      personal_statement_essay: 'I build kites that fly in no wind at all.',
    });
    // Blocks the applicant added but left empty: Parent 2 and four relatives.
    for (const [button_id, num_components] of [
      ['parents', 2],
      ['legacy', 4],
    ] as const) {
      const added = await t.request({
        method: 'PUT',
        url: '/api/add-another',
        body: { button_id, num_components },
        cookies: lee.jar,
      });
      expect(added.statusCode).toBe(200);
    }
    const tab = await t.request({
      method: 'PUT',
      url: '/api/tabs',
      body: { tab_id: 'personal_statement', chosen_tab: 'essay' },
      cookies: lee.jar,
    });
    expect(tab.statusCode).toBe(200);
    const done = await waitForPdf(t, lee.jar);
    expect(done.status).toBe('COMPLETED');
    const download = await t.request({ method: 'GET', url: done.url, cookies: lee.jar });
    const text = pdfText(download.rawPayload);
    const [cover = ''] = text.split('\f');
    expect(cover).toContain(DEFAULT_PARTNER.schoolName);
    expect(cover).toContain('Lee Park');
    // The answered block is there; the empty ones and an empty optional group are not.
    expect(text).toContain('Parent 1/Guardian 1');
    expect(text).toContain('Mina');
    expect(text).not.toContain('Parent 2/Guardian 2');
    expect(text).not.toMatch(/Relative \d Who Attended/);
    expect(text).not.toContain('Ethnicity and Race');
    // The essay under its section, without the tab's label printed above it.
    expect(text).toContain('I build kites that fly in no wind at all.');
    expect(text).not.toContain('Type Your Response');
  });

  it('starts one job for concurrent requests and reuses the PDF until the content changes', async () => {
    const ann = await fresh({ first_name: 'Ann', last_name: 'Wilson', city: 'Boston' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => getPdf(t, ann.jar)));
    for (const response of answers) expect(response.statusCode).toBe(200);
    expect(await countJobs(t, ann.id)).toBe(1);
    const done = await waitForPdf(t, ann.jar);
    expect(done.status).toBe('COMPLETED');
    const cached = await pdfRow(t, ann.id);
    expect(cached?.version).toBe(await versionOf(t, ann.id));

    // Unchanged content: the same file, no new job.
    expect(((await getPdf(t, ann.jar)).json() as ApplicationPdfResponse).status).toBe('COMPLETED');
    expect(await countJobs(t, ann.id)).toBe(1);
    expect((await pdfRow(t, ann.id))?.storageKey).toBe(cached?.storageKey);

    // A new answer is a new version: a new generation replaces the file; the old link is stale.
    await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { city: 'Chicago' },
      cookies: ann.jar,
    });
    const pending = (await getPdf(t, ann.jar)).json() as ApplicationPdfResponse;
    expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(pending.status);
    expect((await t.request({ method: 'GET', url: done.url, cookies: ann.jar })).statusCode).toBe(
      404,
    );
    const redone = await waitForPdf(t, ann.jar);
    expect(redone.status).toBe('COMPLETED');
    expect(await countJobs(t, ann.id)).toBe(2);
    const replaced = await pdfRow(t, ann.id);
    expect(replaced?.storageKey).not.toBe(cached?.storageKey);
    // The job removes the replaced file right after it records the new one: poll, don't race it.
    await vi.waitFor(
      async () => expect(await t.runtime.storage.read(cached!.storageKey!, 10_000_000)).toBeNull(),
      { timeout: 5_000, interval: 50 },
    );
    const stale = await t.request({ method: 'GET', url: done.url, cookies: ann.jar });
    expect(stale.statusCode).toBe(404);
    expect(stale.json().message).toBe(SERVICE_MESSAGES.linkStale);
    const text = pdfText(
      (await t.request({ method: 'GET', url: redone.url, cookies: ann.jar })).rawPayload,
    );
    expect(text).toContain('Chicago');
    expect(text).not.toContain('Boston');
  });

  it('every change of content moves the version: answers, blocks, tabs, documents', async () => {
    const bo = await fresh({ first_name: 'Bo' });
    let version = await versionOf(t, bo.id);
    const expectBump = async (label: string) => {
      const next = await versionOf(t, bo.id);
      expect(next, label).toBeGreaterThan(version);
      version = next;
    };
    await t.request({ method: 'PUT', url: '/api/answer', body: { city: 'Reno' }, cookies: bo.jar });
    await expectBump('answer');
    await t.request({
      method: 'PUT',
      url: '/api/add-another',
      body: { button_id: 'parents', num_components: 2 },
      cookies: bo.jar,
    });
    await expectBump('add-another');
    await t.request({
      method: 'PUT',
      url: '/api/tabs',
      body: { tab_id: 'personal_statement', chosen_tab: 'upload' },
      cookies: bo.jar,
    });
    await expectBump('tab switch');
    await client.upload(bo.jar, DOC, 'essay.pdf', await buildPdf('Essay'));
    expect((await client.waitForResult(bo.jar, DOC)).status).toBe('COMPLETED');
    await expectBump('document converted');
    expect(
      (await t.request({ method: 'DELETE', url: `/api/document-answer/${DOC}`, cookies: bo.jar }))
        .statusCode,
    ).toBe(200);
    await expectBump('document deleted');
    // Reading is not a change.
    await getPdf(t, bo.jar);
    await t.request({ method: 'GET', url: '/api/profile', cookies: bo.jar });
    expect(await versionOf(t, bo.id)).toBe(version);
  });
});

describe.each(primaryDriver())('the PDF path reads the application once (%s)', (driver) => {
  let t: TestRuntime;
  const queries: string[] = [];
  // Every snapshot of an application reads its documents; nothing else on these paths does.
  const snapshotReads = (from: number) =>
    queries.slice(from).filter((q) => /from "document_answers"/i.test(q)).length;

  beforeAll(async () => {
    t = await createTestRuntime(driver, {}, { logQuery: (q) => queries.push(q) });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Makes the sealed SSN undecryptable, as a wrong key would, without touching the version. */
  async function spoilSsn(userId: string) {
    await t.runtime.database.executeSql(
      `UPDATE applications SET sensitive = '{"ssn":"not-a-sealed-value"}'::jsonb WHERE user_id = $1`,
      [userId],
    );
  }

  it('renders from one read, and sends a cached copy without decrypting anything', async () => {
    const email = `once.${driver}@example.org`;
    const jar = await registerApplicant(t, email);
    const saved = await t.request({
      method: 'PUT',
      url: '/api/answer',
      body: { first_name: 'Ada', last_name: 'Byron', citizenship_type: '1', ssn: '123-45-6789' },
      cookies: jar,
    });
    expect(saved.statusCode).toBe(200);
    const userId = await userIdOf(t, email);
    const fileName = `attachment; filename="byron_ada_${userId}.pdf"`;

    // The applicant's copy: the job reads the application once.
    let mark = queries.length;
    const done = await waitForPdf(t, jar);
    expect(done.status).toBe('COMPLETED');
    expect(snapshotReads(mark)).toBe(1);

    // The staff copy, rendered in the request: one read.
    const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
      applicationId: userId,
      now: t.clock.now(),
    });
    const staffUrl = `/service/pdf?service_token=${token}`;
    mark = queries.length;
    const rendered = await t.request({ method: 'GET', url: staffUrl });
    expect(rendered.statusCode).toBe(200);
    expect(rendered.headers['content-disposition']).toBe(fileName);
    expect(snapshotReads(mark)).toBe(1);

    // The SSN cannot be decrypted any more; the cached copies still download, named as before.
    await spoilSsn(userId);
    mark = queries.length;
    const download = await t.request({ method: 'GET', url: done.url, cookies: jar });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(fileName);
    expect(Buffer.from(download.rawPayload).subarray(0, 5).toString()).toBe('%PDF-');
    const cached = await t.request({ method: 'GET', url: staffUrl });
    expect(cached.statusCode).toBe(200);
    expect(cached.headers['content-disposition']).toBe(fileName);
    expect(Buffer.compare(cached.rawPayload, rendered.rawPayload)).toBe(0);
    expect(snapshotReads(mark)).toBe(0);

    // The cached copy's audit lists what was stored with it: the same as the rendering's.
    const audits = await t.runtime.database.db
      .select({ shown: serviceAudit.shown })
      .from(serviceAudit)
      .where(eq(serviceAudit.applicationId, userId));
    expect(audits).toHaveLength(2);
    expect(audits[1]!.shown).toEqual(audits[0]!.shown);
    expect(audits[0]!.shown.answers).toEqual(expect.arrayContaining(['first_name', 'ssn']));
  }, 90_000);
});

describe.each(primaryDriver())('application PDF that cannot be made (%s)', (driver) => {
  let t: TestRuntime;
  beforeAll(async () => {
    t = await createTestRuntime(
      driver,
      {},
      {
        renderPdf: async () => {
          throw new Error('font cache exploded');
        },
      },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers FAILED with a message for the applicant, logs the cause, and retries later', async () => {
    const jar = await registerApplicant(t, `fail.${driver}@example.org`);
    const failed = await waitForPdf(t, jar, 40_000);
    expect(failed).toEqual({ status: 'FAILED', url: '', message: SERVICE_MESSAGES.pdfFailed });
    expect(failed.message).toMatch(/^Error downloading PDF copy of your application\./);
    expect(t.logs.join('\n')).toContain('font cache exploded');
    // Asked again at once: the same answer, no new job.
    expect(((await getPdf(t, jar)).json() as ApplicationPdfResponse).status).toBe('FAILED');
    // A minute later: tried again.
    t.clock.advance(61_000);
    const retried = (await getPdf(t, jar)).json() as ApplicationPdfResponse;
    expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(retried.status);

    // The staff copy is made in the request: 503 with the message, and no audit row.
    const userId = await userIdOf(t, `fail.${driver}@example.org`);
    const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
      applicationId: userId,
      now: t.clock.now(),
    });
    const staff = await t.request({ method: 'GET', url: `/service/pdf?service_token=${token}` });
    expect(staff.statusCode).toBe(503);
    expect(staff.json().message).toBe(SERVICE_MESSAGES.pdfFailed);
    expect(await t.runtime.database.db.select().from(serviceAudit)).toEqual([]);
  }, 60_000);
});

describe('OpenAPI', () => {
  it('documents the PDF and staff routes with every response', async () => {
    const t = await createTestRuntime('pglite');
    try {
      await t.runtime.app.ready();
      const spec = t.runtime.app.swagger() as unknown as {
        paths: Record<
          string,
          Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>
        >;
      };
      const codes = (path: string) => Object.keys(spec.paths[path]?.get?.responses ?? {}).sort();
      expect(codes('/api/pdf')).toEqual(['200', '400', '401', '429', '500', '503']);
      expect(codes('/api/pdf/file')).toEqual([
        '200',
        '400',
        '401',
        '403',
        '404',
        '429',
        '500',
        '503',
      ]);
      for (const path of ['/service/tmp-pdf', '/service/pdf']) {
        expect(codes(path)).toEqual(['200', '400', '401', '403', '429', '500', '503']);
        expect(spec.paths[path]?.get?.parameters?.map((p) => p.name)).toEqual(['service_token']);
      }
      expect(JSON.stringify(spec.paths['/service/pdf']?.get?.responses['200'])).toContain(
        'application/pdf',
      );
    } finally {
      await t.close();
    }
  });
});
