// The endpoint contract holds both ways: the running app's OpenAPI document lists exactly the
// routes of ENDPOINTS (and the documented statuses of their codes), and docs/api.md lists exactly
// ERROR_CODES with their statuses. `UPDATE_DOCS=1 npx vitest run --project api
// services/api/test/endpoint-contract.test.ts` rewrites the docs/api.md table from the code.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, ERROR_CODES, type ErrorCodeEntry } from '@admissions/api-contract';
import { createTestRuntime } from './support/test-runtime';

/** Outside the contract on purpose: not JSON endpoints of this API (ARCHITECTURE.md). */
const OUTSIDE_THE_CONTRACT = [
  // The local storage driver's stand-in for S3's presigned POST (multipart; the URL comes from
  // POST /api/presigned-url, and with S3 it is S3's own).
  'POST /storage/upload',
];

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
