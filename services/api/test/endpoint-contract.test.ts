// The endpoint contract holds both ways: the running app's OpenAPI document lists exactly the
// routes of ENDPOINTS (and the documented statuses of their codes), and docs/api.md lists exactly
// ERROR_CODES with their statuses. `UPDATE_DOCS=1 npx vitest run --project api
// services/api/test/endpoint-contract.test.ts` rewrites the docs/api.md table from the code.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, ERROR_CODES, type ErrorCodeEntry } from '@admissions/api-contract';
import { users } from '../src/modules/auth';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import { createTestRuntime, registerApplicant } from './support/test-runtime';

/** Outside the contract on purpose: not JSON endpoints of this API (ARCHITECTURE.md). */
const OUTSIDE_THE_CONTRACT = [
  // The local storage driver's stand-in for S3's presigned POST (multipart; the URL comes from
  // POST /api/presigned-url, and with S3 it is S3's own).
  'POST /storage/upload',
];

/**
 * The response fields docs/api.md names for its endpoints: each must stay a required property of
 * the 200 schema (which is also what Fastify serializes, so a field left out of it never leaves
 * the server). Other fields may sit beside them.
 */
const DOCUMENTED_FIELDS: Partial<Record<keyof typeof ENDPOINTS, string[]>> = {
  readServicePrint: ['answer', 'add_another', 'document_answer', 'tabs'],
  saveAnswers: ['message'],
  createUploadUrl: ['url', 'fields'],
  readConversion: ['status', 'message'],
  requestApplicationPdf: ['status', 'url', 'message'],
};

/** The required properties of an endpoint's 200 schema. */
function requiredFieldsOf(name: keyof typeof ENDPOINTS): string[] {
  const ok = (ENDPOINTS[name].response as Record<number, TSchema | undefined>)[200];
  return (ok?.required as string[] | undefined) ?? [];
}

const API_DOC = path.resolve(import.meta.dirname, '../../../docs/api.md');
const START =
  '<!-- error-codes:start (generated from ERROR_CODES: see services/api/test/endpoint-contract.test.ts) -->';
const END = '<!-- error-codes:end -->';

function errorCodeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, entry]: [string, ErrorCodeEntry]) => {
    const statuses = [entry.status, ...(entry.otherStatuses ?? [])].join(', ');
    return `| \`${code}\` | ${statuses} | ${entry.meaning} |`;
  });
  return ['| code | status | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

describe('the endpoint contract', () => {
  it('is what the running app serves and documents: the same routes, with the statuses of their codes', async () => {
    const t = await createTestRuntime('pglite');
    try {
      await t.runtime.app.ready();
      const spec = t.runtime.app.swagger() as unknown as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      };
      const served = Object.entries(spec.paths).flatMap(([p, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      const declared = Object.values(ENDPOINTS).map((e) => e.route);
      expect(served.sort()).toEqual([...declared, ...OUTSIDE_THE_CONTRACT].sort());

      for (const endpoint of Object.values(ENDPOINTS)) {
        const openApiPath = endpoint.path.replace(/:(\w+)/g, '{$1}');
        const documented = spec.paths[openApiPath]?.[endpoint.method.toLowerCase()]?.responses;
        const expected = new Set([
          ...Object.keys(endpoint.response),
          ...endpoint.errors.map((code) => String(ERROR_CODES[code].status)),
        ]);
        expect(Object.keys(documented ?? {}).sort(), endpoint.route).toEqual([...expected].sort());
      }
    } finally {
      await t.close();
    }
  });

  it("keeps the documented response fields in each endpoint's 200 schema", () => {
    for (const [name, fields] of Object.entries(DOCUMENTED_FIELDS)) {
      expect(requiredFieldsOf(name as keyof typeof ENDPOINTS), name).toEqual(
        expect.arrayContaining(fields),
      );
    }
  });

  it('GET /service/tmp-pdf answers the documented fields, and its body matches the schema', async () => {
    const t = await createTestRuntime('pglite');
    try {
      const jar = await registerApplicant(t, 'contract@example.org');
      const saved = await t.request({
        method: 'PUT',
        url: '/api/answer',
        body: { first_name: 'Ada', citizenship_type: '1', ssn: '123-45-6789' },
        cookies: jar,
      });
      expect(saved.statusCode).toBe(200);
      const [account] = await t.runtime.database.db.select({ id: users.id }).from(users);
      const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
        applicationId: account!.id,
        now: t.clock.now(),
      });
      const response = await t.request({
        method: 'GET',
        url: `/service/tmp-pdf?service_token=${encodeURIComponent(token)}`,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json() as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(
        expect.arrayContaining(DOCUMENTED_FIELDS.readServicePrint!),
      );
      expect(body.answer).toMatchObject({ first_name: 'Ada', ssn: '***-**-6789' });
      const schema = ENDPOINTS.readServicePrint.response[200];
      expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('docs/api.md lists exactly ERROR_CODES with their statuses', () => {
    const doc = readFileSync(API_DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    const section = `${START}\n${errorCodeTable()}\n${END}`;
    if (process.env.UPDATE_DOCS === '1') {
      const next =
        start === -1
          ? `${doc.trimEnd()}\n\n## Error codes\n\n${section}\n`
          : doc.slice(0, start) + section + doc.slice(end + END.length);
      writeFileSync(API_DOC, next);
      return;
    }
    expect(start, 'docs/api.md has no generated error code table').toBeGreaterThan(-1);
    expect(doc.slice(start, end + END.length)).toBe(section);
  });
});
