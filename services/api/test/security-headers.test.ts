// Security suite (issue #9, docs/design-decisions.md, 11): the security headers on every route of the OpenAPI
// document (anonymous, with an applicant's session, with a service token on the staff routes),
// the SPA and its history fallback, /health, /docs when enabled, a 404, a 429 — over http and,
// with Strict-Transport-Security, over https.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { eq } from 'drizzle-orm';
import { API_ROUTES } from '@admissions/api-contract';
import { users } from '../src/modules/auth';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import { isApiPath } from '../src/platform/http/security';
import { fillPath, listRoutes, type OpenApiDocument } from './support/fuzz';
import {
  availableDrivers,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

/** Every problem with one response's headers (empty when all is well). */
function headerProblems(
  response: LightMyRequestResponse,
  { https, api, url }: { https: boolean; api: boolean; url: string },
): string[] {
  const problems: string[] = [];
  const header = (name: string) => {
    const value = response.headers[name];
    return value === undefined ? undefined : String(value);
  };
  const csp = header('content-security-policy') ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values.join(' ')]),
  );
  for (const [name, value] of [
    ['frame-ancestors', "'none'"],
    ['base-uri', "'none'"],
    ['object-src', "'none'"],
  ]) {
    if (directives.get(name!) !== value) {
      problems.push(`CSP ${name} is ${JSON.stringify(directives.get(name!))} (csp: ${csp})`);
    }
  }
  if (header('x-content-type-options') !== 'nosniff') problems.push('no X-Content-Type-Options');
  if (header('x-frame-options') !== 'DENY') problems.push('X-Frame-Options is not DENY');
  if (header('referrer-policy') !== 'no-referrer')
    problems.push('Referrer-Policy is not no-referrer');
  if (header('x-powered-by') !== undefined) problems.push('X-Powered-By is sent');
  const hsts = header('strict-transport-security');
  if (https && !/max-age=31536000/.test(hsts ?? '')) problems.push(`HSTS is ${hsts}`);
  if (!https && hsts !== undefined) problems.push('HSTS over plain http');
  if (api && header('cache-control') !== 'no-store') {
    problems.push(`Cache-Control is ${header('cache-control')}`);
  }
  // A JSON answer is no page: its policy allows nothing, and it carries none of the page-only
  // headers nor the rate limit's counters below the limit. Anything else (pages, PDFs, the
  // docs) keeps the page policy.
  const json = (header('content-type') ?? '').startsWith('application/json');
  if (isApiPath(url) && json) {
    if (directives.get('default-src') !== "'none'") problems.push(`JSON answer's CSP is ${csp}`);
    for (const pageOnly of [
      'x-dns-prefetch-control',
      'x-download-options',
      'origin-agent-cluster',
    ]) {
      if (header(pageOnly) !== undefined) problems.push(`${pageOnly} on a JSON answer`);
    }
    if (header('cross-origin-resource-policy') !== 'same-origin') {
      problems.push('no Cross-Origin-Resource-Policy on a JSON answer');
    }
    if (response.statusCode !== 429 && header('x-ratelimit-remaining') !== undefined) {
      problems.push('X-RateLimit-Remaining below the limit');
    }
  } else if (!directives.get('script-src')) {
    problems.push(`no script-src in the page policy (csp: ${csp})`);
  }
  if (response.statusCode === 429 && header('retry-after') === undefined) {
    problems.push('429 without Retry-After');
  }
  return problems;
}

interface Probe {
  name: string;
  url: string;
  response: LightMyRequestResponse;
  api: boolean;
}

async function setUp(driver: 'pglite' | 'postgres', env: Record<string, string>) {
  const webDist = mkdtempSync(path.join(os.tmpdir(), 'admissions-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Apply</title>');
  writeFileSync(path.join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
  const pdf = await (await PDFDocument.create()).save();
  const t = await createTestRuntime(
    driver,
    { WEB_DIST: webDist, ENABLE_DOCS: 'true', ...env },
    { renderPdf: async () => pdf },
  );
  return { t, webDist };
}

/** One request to every route of the document per identity, and the non-API pages. */
async function probeEverything(t: TestRuntime, email: string): Promise<Probe[]> {
  const jar = await registerApplicant(t, email);
  const [user] = await t.runtime.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
    applicationId: user!.id,
    now: t.clock.now(),
  });
  await t.runtime.app.ready();
  const routes = listRoutes(t.runtime.app.swagger() as unknown as OpenApiDocument);
  expect(routes.length).toBeGreaterThanOrEqual(Object.keys(API_ROUTES).length);
  const probes: Probe[] = [];
  const send = async (name: string, api: boolean, options: Parameters<TestRuntime['request']>[0]) =>
    probes.push({ name, api, url: options.url, response: await t.request(options) });

  for (const route of routes) {
    const url = fillPath(route.path, { key: 'essay_doc' });
    const json = { 'content-type': 'application/json' };
    const body = route.body ? {} : undefined;
    await send(`${route.method} ${route.path} (anonymous)`, true, {
      method: route.method,
      url,
      body,
      headers: json,
    });
    if (route.path !== API_ROUTES.logout) {
      await send(`${route.method} ${route.path} (applicant)`, true, {
        method: route.method,
        url,
        body,
        headers: json,
        cookies: jar,
      });
    }
    if (route.path.startsWith('/service/')) {
      await send(`${route.method} ${route.path} (service token)`, true, {
        method: route.method,
        url: `${url}?service_token=${encodeURIComponent(token)}`,
      });
    }
  }
  const html = { accept: 'text/html' };
  await send('SPA page', false, { method: 'GET', url: '/about', headers: html });
  await send('SPA history fallback', false, {
    method: 'GET',
    url: '/education?x=1',
    headers: html,
  });
  await send('SPA asset', false, { method: 'GET', url: '/assets/app-1234.js' });
  await send('/docs', false, { method: 'GET', url: '/docs' });
  await send('/docs/json', false, { method: 'GET', url: '/docs/json' });
  await send('404 under /api', true, { method: 'GET', url: '/api/nothing-here' });
  await send('404 elsewhere', false, { method: 'DELETE', url: '/nothing-here' });
  await send('405-like method', true, { method: 'PUT', url: API_ROUTES.health });
  await send('read-only guard 403', true, {
    method: 'POST',
    url: `${API_ROUTES.submit}?service_token=x`,
  });
  await send('broken JSON 400', true, {
    method: 'POST',
    url: API_ROUTES.login,
    headers: { 'content-type': 'application/json' },
    body: '{"username":',
  });
  return probes;
}

function expectAllGood(probes: Probe[], https: boolean) {
  const problems = probes.flatMap((p) =>
    headerProblems(p.response, { https, api: p.api, url: p.url }).map(
      (problem) => `${p.name} → ${p.response.statusCode}: ${problem}`,
    ),
  );
  expect(problems).toEqual([]);
}

describe.each(availableDrivers())('security headers on %s over http', (driver) => {
  let t: TestRuntime;
  let webDist: string;
  beforeAll(async () => {
    ({ t, webDist } = await setUp(driver, {}));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('are sent on every route, page, error and the docs', async () => {
    const probes = await probeEverything(t, `headers.${driver}@example.org`);
    // Successful answers are among them (not only refusals).
    expect(probes.filter((p) => p.response.statusCode === 200).length).toBeGreaterThan(10);
    expect(probes.find((p) => p.name === '/docs')?.response.statusCode).toBeLessThan(400);
    expectAllGood(probes, false);
  });
});

describe('security headers over https', () => {
  let t: TestRuntime;
  let webDist: string;
  beforeAll(async () => {
    ({ t, webDist } = await setUp('pglite', {
      PUBLIC_URL: 'https://apply.example.edu',
      PUBLIC_RATE_LIMIT: '3',
    }));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('add Strict-Transport-Security everywhere, rate-limit answers included', async () => {
    const probes = await probeEverything(t, 'headers.https@example.org');
    // The sign-up, confirm and login above used up most of the public limit of 3.
    for (let i = 0; i < 4; i++) {
      probes.push({
        name: `login ${i}`,
        url: API_ROUTES.login,
        api: true,
        response: await t.request({
          method: 'POST',
          url: API_ROUTES.login,
          body: { username: 'nobody@example.org', password: 'x' },
        }),
      });
    }
    expect(probes.some((p) => p.response.statusCode === 429)).toBe(true);
    expectAllGood(probes, true);
  });
});
