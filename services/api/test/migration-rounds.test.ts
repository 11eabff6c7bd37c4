// Issue 29: a database of the schema before rounds (migrations up to 0013) with applications in
// every state migrates to the head, and every answer, document, PDF and audit row is still
// reachable through the API under the same ids.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { WEB_STATUSES } from '@admissions/api-contract';
import { SERVICE_ROOT } from '../src/platform/service-root';
import { loadSecrets, seal } from '../src/platform/lib/crypto';
import { hashPassword } from '../src/modules/auth/passwords';
import { mintServiceToken } from '../src/modules/service';
import { buildDocumentPdf } from './support/seed-applications';
import { enrolStaffMember } from './support/staff-enrolment';
import {
  TEST_PASSWORD,
  availableDrivers,
  cookiesOf,
  createTestRuntime,
  type PreparedDatabase,
  type TestRuntime,
} from './support/test-runtime';

/** The migrations folder as it was before rounds: 0000 … 0013 and their journal. */
function migrationsBeforeRounds(): string {
  const source = path.join(SERVICE_ROOT, 'drizzle');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'admissions-migrations-'));
  const journal = JSON.parse(readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  journal.entries = journal.entries.filter((e) => e.idx <= 13);
  expect(journal.entries.at(-1)?.tag).toBe('0013_document_preview');
  for (const entry of journal.entries) {
    cpSync(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  cpSync(path.join(source, 'meta'), path.join(folder, 'meta'), { recursive: true });
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  expect(readdirSync(folder).filter((f) => f.endsWith('.sql'))).toHaveLength(14);
  return folder;
}

type Query = (text: string, params?: unknown[]) => Promise<unknown>;

interface Applicant {
  id: string;
  email: string;
  state: 'started' | 'validating' | 'submitted';
  answers: Record<string, string>;
  ssn: string;
  documentKey: string;
  pdfKey: string;
  servicePdfKey: string;
  version: number;
}

const STATES = ['started', 'validating', 'submitted'] as const;

describe.each(availableDrivers())('migrating to rounds on %s', (driver) => {
  let t: TestRuntime;
  const applicants: Applicant[] = STATES.map((state, i) => ({
    id: crypto.randomUUID(),
    email: `${state}.${driver}@example.org`,
    state,
    answers: { first_name: `Ana${i}`, last_name: `Old ${state}`, city: 'Springfield' },
    ssn: `123-45-67${i}0`,
    documentKey: '',
    pdfKey: '',
    servicePdfKey: '',
    version: 3 + i,
  }));
  const documentPdf = buildDocumentPdf('A document from before rounds');
  const applicationPdf = buildDocumentPdf('An application PDF from before rounds');

  async function seed(run: Query, dataDir: string) {
    const { encryptionKey } = await loadSecrets(null, dataDir);
    const passwordHash = await hashPassword(TEST_PASSWORD);
    for (const a of applicants) {
      a.documentKey = `documents/${a.id}/honors_statement_doc/${randomBytes(6).toString('hex')}.pdf`;
      a.pdfKey = `application-pdfs/${a.id}/applicant/${randomBytes(6).toString('hex')}.pdf`;
      a.servicePdfKey = `application-pdfs/${a.id}/service/${randomBytes(6).toString('hex')}.pdf`;
      await run(
        `INSERT INTO users (id, email, password_hash, confirmed_at) VALUES ($1, $2, $3, now())`,
        [a.id, a.email, passwordHash],
      );
      const webStatus =
        a.state === 'submitted'
          ? [...WEB_STATUSES]
          : a.state === 'validating'
            ? ['started', 'validating']
            : ['started'];
      await run(
        `INSERT INTO applications (user_id, answer, sensitive, web_status, version, submitted_at)
         VALUES ($1, $2::jsonb, $3::jsonb, $4::text[], $5, $6)`,
        [
          a.id,
          JSON.stringify({ ...a.answers, honors_statement_doc: 'ANSWERED' }),
          JSON.stringify({ ssn: seal(encryptionKey, a.ssn) }),
          `{${webStatus.join(',')}}`,
          a.version,
          a.state === 'submitted' ? '2026-11-01T12:00:00Z' : null,
        ],
      );
      await run(
        `INSERT INTO document_answers (user_id, answer_key, file_name, file_size, pdf_key, pdf_size, page_count)
         VALUES ($1, 'honors_statement_doc', 'honors.docx', 4321, $2, 999, 2)`,
        [a.id, a.documentKey],
      );
      await run(
        `INSERT INTO document_conversions (user_id, answer_key, token, status, source_key, file_name)
         VALUES ($1, 'honors_statement_doc', 'tok', 'COMPLETED', $2, 'honors.docx')`,
        [a.id, `uploads/${a.id}/honors_statement_doc/source`],
      );
      for (const [audience, key] of [
        ['applicant', a.pdfKey],
        ['service', a.servicePdfKey],
      ] as const) {
        await run(
          `INSERT INTO application_pdfs (user_id, audience, version, status, token, storage_key, pdf_size, shown)
           VALUES ($1, $2, $3, 'COMPLETED', 'pdf-tok', $4, 999, $5::jsonb)`,
          [
            a.id,
            audience,
            a.version,
            key,
            JSON.stringify({ answers: ['first_name'], documents: ['honors_statement_doc'] }),
          ],
        );
      }
      await run(
        `INSERT INTO service_audit (token_id, user_id, action, shown, ip)
         VALUES ('old-token', $1, 'pdf', $2::jsonb, '192.0.2.1')`,
        [a.id, JSON.stringify({ answers: ['first_name'], documents: [] })],
      );
    }
  }

  async function prepare(target: PreparedDatabase, dataDir: string) {
    const folder = migrationsBeforeRounds();
    try {
      if ('pglite' in target) {
        await migratePglite(drizzlePglite(target.pglite), { migrationsFolder: folder });
        await seed((text, params) => target.pglite.query(text, params), dataDir);
      } else {
        const client = new pg.Client({ connectionString: target.url });
        await client.connect();
        try {
          await migratePg(drizzlePg(client), { migrationsFolder: folder });
          await seed((text, params) => client.query(text, params), dataDir);
        } finally {
          await client.end();
        }
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  beforeAll(async () => {
    t = await createTestRuntime(
      driver,
      {},
      {
        // A master key of its own, so the seeded sealed answers open after the start.
        prepareDataDir: (dataDir) =>
          writeFileSync(path.join(dataDir, 'secret.key'), randomBytes(32).toString('base64'), {
            mode: 0o600,
          }),
        prepareDatabase: prepare,
      },
    );
    // The stored files the seeded rows name (their keys are from before rounds).
    for (const a of applicants) {
      await t.runtime.storage.write(a.documentKey, await documentPdf, 'application/pdf');
      await t.runtime.storage.write(a.pdfKey, await applicationPdf, 'application/pdf');
      await t.runtime.storage.write(a.servicePdfKey, await applicationPdf, 'application/pdf');
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const login = async (email: string) =>
    cookiesOf(
      await t.request({
        method: 'POST',
        url: '/public/login',
        body: { username: email, password: TEST_PASSWORD },
      }),
    );

  it('keeps every applicant’s answers, sealed answers, documents and PDF', async () => {
    for (const a of applicants) {
      const jar = await login(a.email);
      const get = (url: string) => t.request({ method: 'GET', url, cookies: jar });
      const profile = await get('/api/profile');
      expect(profile.statusCode, profile.body).toBe(200);
      expect(profile.json().answer).toEqual({
        ...a.answers,
        honors_statement_doc: 'ANSWERED',
        ssn: a.ssn,
      });
      expect(profile.json().document_answer).toEqual({
        honors_statement_doc: { file_name: 'honors.docx', file_size: 4321 },
      });
      expect(profile.json().web_status).toHaveLength(
        { started: 1, validating: 2, submitted: 3 }[a.state],
      );
      expect((await get('/api/document-answer')).json()).toEqual({
        honors_statement_doc: { file_name: 'honors.docx', file_size: 4321 },
      });
      const listed = (await get('/api/applications')).json();
      expect(listed.current).toBe('DEFAULT');
      expect(listed.applications).toEqual([
        {
          round: 'DEFAULT',
          status: a.state,
          submitted_at: a.state === 'submitted' ? '2026-11-01T12:00:00.000Z' : null,
        },
      ]);
      // The cached PDF of this version is served as it was.
      const pdf = (await get('/api/pdf')).json();
      expect(pdf.status).toBe('COMPLETED');
      const file = await get(pdf.url);
      expect(file.statusCode).toBe(200);
      expect(new Uint8Array(file.rawPayload)).toEqual(await applicationPdf);
      // The applicant's own application is still open (or still submitted).
      const saved = await t.request({
        method: 'PUT',
        url: '/api/answer',
        body: { city: 'Shelbyville' },
        cookies: jar,
      });
      expect(saved.statusCode).toBe(a.state === 'submitted' ? 409 : 200);
    }
  });

  /**
   * The submitted application is unchanged since its cached staff PDF: that copy is served. The
   * others changed in the test above (a save bumps the version): a new copy is rendered.
   */
  async function expectServicePdf(a: Applicant, payload: Buffer) {
    if (a.state === 'submitted') {
      expect(new Uint8Array(payload)).toEqual(await applicationPdf);
    } else {
      expect(payload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  }

  it('shows staff every application under the id it had, with its documents, PDF and audit trail', async () => {
    const reader = await enrolStaffMember(t, `reader.${driver}@staff.example.edu`, 'reader');
    const get = (url: string) => t.request({ method: 'GET', url, cookies: reader.jar });
    const list = (await get('/staff/api/applications?sort=name_asc')).json();
    expect(list.total).toBe(3);
    expect(list.counts).toEqual({ started: 1, validating: 1, submitted: 1 });
    for (const a of applicants) {
      const row = list.rows.find((r: { email: string }) => r.email === a.email);
      expect(row).toMatchObject({ id: a.id, round: 'DEFAULT', status: a.state });
      const page = await get(`/staff/api/applications/${a.id}`);
      expect(page.statusCode, page.body).toBe(200);
      expect(JSON.stringify(page.json().print)).toContain(a.answers.last_name);
      expect(page.json().documents).toEqual([
        {
          answer_key: 'honors_statement_doc',
          file_name: 'honors.docx',
          status: 'COMPLETED',
          message: '',
        },
      ]);
      const staffPdf = await get(`/staff/api/applications/${a.id}/pdf`);
      expect(staffPdf.statusCode).toBe(200);
      await expectServicePdf(a, staffPdf.rawPayload);
      // A service token minted with the id from before rounds reads the same application.
      const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
        applicationId: a.id,
        now: t.clock.now(),
      });
      const servicePdf = await t.request({
        method: 'GET',
        url: `/service/pdf?service_token=${encodeURIComponent(token)}`,
      });
      expect(servicePdf.statusCode).toBe(200);
      await expectServicePdf(a, servicePdf.rawPayload);
      // The audit trail names the application: the row from before rounds and the reads above.
      const { rows } = await t.runtime.database.executeSql(
        `SELECT token_id, action FROM service_audit WHERE application_id = $1 ORDER BY id`,
        [row.id],
      );
      expect(rows.map((r) => r.token_id)[0]).toBe('old-token');
      expect(rows).toHaveLength(4);
    }
  });
});
