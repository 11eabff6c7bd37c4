// Staff access with service tokens (docs/design-decisions.md, 8, docs/data-model.md.9): one applicant per token, read-only,
// expiring, every read audited in an append-only table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { SERVICE_MESSAGES, type ServicePrintResponse } from '@admissions/api-contract';
import type { AnswerView } from '@admissions/answer-view';
import { serviceAudit } from '../src/modules/service';
import { users } from '../src/modules/auth';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import { pdfText } from './support/pdf-inspect';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const ADA = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  city: 'Baltimore',
  citizenship_type: '1',
  ssn: '123-45-6789',
  conviction: 'N',
  // Hidden (conviction is No): the view leaves it out.
  conviction_comment: 'A hidden comment',
};

/** The displayed value of each answer key in a print view's rows. */
function rowValues(view: AnswerView): Record<string, string> {
  return Object.fromEntries(
    view.pages.flatMap((p) => p.sections.flatMap((s) => s.rows.map((r) => [r.key, r.value]))),
  );
}
const GRACE = { first_name: 'Grace', last_name: 'Hopper', city: 'Arlington' };

describe.each(availableDrivers())('service tokens (%s)', (driver) => {
  let t: TestRuntime;
  let ada: { jar: Record<string, string>; id: string };
  let grace: { jar: Record<string, string>; id: string };

  const userId = async (email: string) => {
    const [row] = await t.runtime.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email));
    if (!row) throw new Error(`no user ${email}`);
    return row.id;
  };
  const tokenFor = (id: string, ttlMs?: number) =>
    mintServiceToken(t.runtime.secrets.serviceTokenKey, {
      applicationId: id,
      now: t.clock.now(),
      ttlMs,
    });
  const auditRows = (id?: string) =>
    id
      ? t.runtime.database.db.select().from(serviceAudit).where(eq(serviceAudit.applicationId, id))
      : t.runtime.database.db.select().from(serviceAudit);
  const print = (token: string) =>
    t.request({
      method: 'GET',
      url: `/service/tmp-pdf?service_token=${encodeURIComponent(token)}`,
    });

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    const adaJar = await registerApplicant(t, 'ada@example.org');
    const graceJar = await registerApplicant(t, 'grace@example.org');
    for (const [jar, answers] of [
      [adaJar, ADA],
      [graceJar, GRACE],
    ] as const) {
      const saved = await t.request({
        method: 'PUT',
        url: '/api/answer',
        body: answers,
        cookies: jar,
      });
      expect(saved.statusCode).toBe(200);
    }
    await t.request({
      method: 'PUT',
      url: '/api/add-another',
      body: { button_id: 'parents', num_components: 2 },
      cookies: adaJar,
    });
    ada = { jar: adaJar, id: await userId('ada@example.org') };
    grace = { jar: graceJar, id: await userId('grace@example.org') };
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it("serves the print view's data of the token's applicant, SSN masked, and audits the read", async () => {
    const { token, claims } = tokenFor(ada.id);
    const before = (await auditRows(ada.id)).length;
    const response = await print(token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    // A service token never creates an applicant session.
    expect(response.headers['set-cookie']).toBeUndefined();
    const body = response.json() as ServicePrintResponse;
    // The finished view model, as the staff PDF lays it out: hidden answers left out, the SSN masked.
    const shown = rowValues(body.view);
    expect(shown).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', city: 'Baltimore' });
    expect(shown.ssn).toBe('***-**-6789');
    expect(JSON.stringify(body)).not.toContain('123-45');
    expect(JSON.stringify(body)).not.toContain('A hidden comment');
    expect(body.view.documents).toEqual([]);
    // Two parents' blocks asked for, the second with nothing answered: staff see the first only.
    const sections = body.view.pages.flatMap((p) => p.sections);
    expect(sections.filter((s) => s.block?.group === 'parents').map((s) => s.block!.index)).toEqual(
      [1],
    );
    // The documented fields (docs/api.md), beside the view: the same answers, hidden ones left
    // out and the SSN masked as printed; the raw counts, documents and each group's tab.
    expect(body.answer).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      city: 'Baltimore',
      citizenship_type: '1',
      ssn: '***-**-6789',
      conviction: 'N',
    });
    expect(body.answer).not.toHaveProperty('conviction_comment');
    expect(body.add_another).toMatchObject({ parents: 2 });
    expect(body.document_answer).toEqual({});
    expect(Object.keys(body.tabs).length).toBeGreaterThan(0);
    expect(Object.values(body.tabs).every((tab) => typeof tab === 'string' && tab !== '')).toBe(
      true,
    );
    expect(body.applicant).toEqual({
      name: 'Ada Lovelace',
      application_id: ada.id,
      email: 'ada@example.org',
      submitted_at: null,
    });

    const rows = await auditRows(ada.id);
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ tokenId: claims.jti, applicationId: ada.id, action: 'print-view' });
    expect(row.shown.answers).toEqual(expect.arrayContaining(['first_name', 'last_name', 'ssn']));
    expect(row.shown.documents).toEqual([]);
    // Keys only: no value ever reaches the audit table.
    expect(JSON.stringify(row)).not.toMatch(/Ada|Lovelace|Baltimore|6789/);
    // The token travels in the query string, which the logs redact.
    const logs = t.logs.join('\n');
    expect(logs).toContain('/service/tmp-pdf?service_token=[REDACTED]');
    expect(logs).not.toContain(token.split('.')[1]!);
  });

  it('writes exactly one audit row per read', async () => {
    const { token } = tokenFor(grace.id);
    const before = (await auditRows(grace.id)).length;
    for (let i = 0; i < 3; i++) expect((await print(token)).statusCode).toBe(200);
    expect(await auditRows(grace.id)).toHaveLength(before + 3);
  });

  it("a token for one applicant never reads another's application", async () => {
    const { token } = tokenFor(grace.id);
    const body = (await print(token)).json();
    expect(body.applicant.application_id).toBe(grace.id);
    expect(rowValues((body as ServicePrintResponse).view).first_name).toBe('Grace');
    expect(JSON.stringify(body)).not.toContain('Ada');

    // Re-pointing Grace's token at Ada breaks the signature.
    const before = (await auditRows()).length;
    const [payload, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string };
    claims.sub = ada.id;
    const forged = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const refused = await print(forged);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(SERVICE_MESSAGES.tokenInvalid);
    expect(await auditRows()).toHaveLength(before);
  });

  it('refuses tampered, malformed, foreign and expired tokens with 401 and audits none', async () => {
    const before = (await auditRows()).length;
    const { token } = tokenFor(ada.id);
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const foreign = mintServiceToken(Buffer.alloc(32, 7), {
      applicationId: ada.id,
      now: t.clock.now(),
    });
    for (const bad of [flipped, 'not-a-token', `${token}.extra`, 'e30.e30', foreign.token]) {
      const response = await print(bad);
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(SERVICE_MESSAGES.tokenInvalid);
    }
    const missing = await t.request({ method: 'GET', url: '/service/tmp-pdf' });
    expect(missing.statusCode).toBe(400);

    const short = tokenFor(ada.id, 60_000);
    expect((await print(short.token)).statusCode).toBe(200);
    t.clock.advance(61_000);
    const expired = await print(short.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(SERVICE_MESSAGES.tokenExpired);
    expect(expired.json().message).toMatch(/expired.*ask for a new link/i);
    const expiredPdf = await t.request({
      method: 'GET',
      url: `/service/pdf?service_token=${short.token}`,
    });
    expect(expiredPdf.statusCode).toBe(401);
    // Only the one successful read above was audited.
    expect(await auditRows()).toHaveLength(before + 1);
  });

  it('refuses every write that carries a service token with 403, and changes nothing', async () => {
    const { token } = tokenFor(ada.id);
    const q = `service_token=${encodeURIComponent(token)}`;
    const profileBefore = (
      await t.request({ method: 'GET', url: '/api/profile', cookies: ada.jar })
    ).json();
    const auditBefore = (await auditRows()).length;
    const attempts: {
      method: 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
      url: string;
      body?: unknown;
    }[] = [
      { method: 'POST', url: `/service/tmp-pdf?${q}` },
      { method: 'PUT', url: `/service/tmp-pdf?${q}`, body: { first_name: 'X' } },
      { method: 'DELETE', url: `/service/tmp-pdf?${q}` },
      { method: 'PATCH', url: `/service/pdf?${q}` },
      { method: 'HEAD', url: `/service/tmp-pdf?${q}` },
      { method: 'OPTIONS', url: `/service/pdf?${q}` },
      { method: 'POST', url: `/service/anything` },
      { method: 'PUT', url: `/api/answer?${q}`, body: { first_name: 'Mallory' } },
      { method: 'POST', url: `/api/submit?${q}` },
      {
        method: 'PUT',
        url: `/api/tabs?${q}`,
        body: { tab_id: 'personal_statement', chosen_tab: 'upload' },
      },
      {
        method: 'PUT',
        url: `/api/add-another?${q}`,
        body: { button_id: 'parents', num_components: 1 },
      },
      { method: 'POST', url: `/api/web-status?${q}`, body: { web_status: 'validating' } },
      { method: 'DELETE', url: `/api/document-answer/personal_statement_doc?${q}` },
      {
        method: 'POST',
        url: `/api/presigned-url?${q}`,
        body: { answer_key: 'personal_statement_doc' },
      },
      {
        method: 'POST',
        url: `/public/login?${q}`,
        body: { username: 'ada@example.org', password: 'x' },
      },
      { method: 'POST', url: `/storage/upload?${q}` },
    ];
    for (const attempt of attempts) {
      // With the applicant's own session too: the token still makes it read-only.
      const response = await t.runtime.app.inject({
        method: attempt.method,
        url: attempt.url,
        cookies: ada.jar,
        ...(attempt.body === undefined ? {} : { payload: attempt.body as object }),
      });
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(403);
      if (attempt.method !== 'HEAD') {
        expect(response.json()).toMatchObject({ message: 'Service access is read-only.' });
      }
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const profileAfter = (
      await t.request({ method: 'GET', url: '/api/profile', cookies: ada.jar })
    ).json();
    expect(profileAfter).toEqual(profileBefore);
    expect(
      (await t.request({ method: 'GET', url: '/api/add-another', cookies: ada.jar })).json(),
    ).toEqual({ parents: 2 });
    expect(await auditRows()).toHaveLength(auditBefore);
    // Reads with a token elsewhere are not refused by the guard (a GET carries no change).
    const read = await t.request({ method: 'GET', url: `/api/profile?${q}`, cookies: ada.jar });
    expect(read.statusCode).toBe(200);
  });

  it('keeps the audit append-only in the database itself', async () => {
    const { token } = tokenFor(ada.id);
    expect((await print(token)).statusCode).toBe(200);
    const db = t.runtime.database.db;
    const before = await auditRows();
    await expect(db.execute(sql`UPDATE service_audit SET token_id = 'forged'`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM service_audit`)).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE service_audit`)).rejects.toThrow();
    await expect(
      db.delete(serviceAudit).where(eq(serviceAudit.applicationId, ada.id)),
    ).rejects.toThrow();
    await expect(
      t.runtime.database.executeSql('DELETE FROM service_audit WHERE application_id = $1', [
        ada.id,
      ]),
    ).rejects.toThrow(/service_audit is append-only: DELETE is not allowed/);
    expect(await auditRows()).toEqual(before);
  });

  it('streams the staff PDF, audited with what it shows', async () => {
    const { token, claims } = tokenFor(ada.id);
    const before = (await auditRows(ada.id)).length;
    const response = await t.request({
      method: 'GET',
      url: `/service/pdf?service_token=${encodeURIComponent(token)}`,
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="lovelace_ada_${ada.id}.pdf"`,
    );
    expect(response.headers['set-cookie']).toBeUndefined();
    const bytes = response.rawPayload;
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
    const text = pdfText(bytes);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('***-**-6789');
    expect(text).not.toContain('123-45');

    const rows = await auditRows(ada.id);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ tokenId: claims.jti, action: 'pdf' });
    expect(rows.at(-1)!.shown.answers).toEqual(expect.arrayContaining(['first_name', 'ssn']));

    // The second copy of the same version comes from the cache, and is audited again.
    const again = await t.request({
      method: 'GET',
      url: `/service/pdf?service_token=${encodeURIComponent(token)}`,
    });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(bytes)).toBe(true);
    expect(await auditRows(ada.id)).toHaveLength(before + 2);
  });
});
