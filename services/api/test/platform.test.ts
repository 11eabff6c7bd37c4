import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/platform/config';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { createLogger, redactUrl } from '../src/platform/logging/logger';
import { startRuntime } from '../src/boot/runtime';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';
import { cliNodeArgs } from './support/process-stack';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      smtpUrl: null,
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('defaults PUBLIC_URL to the address that reaches HOST', () => {
    const publicUrlOf = (env: Record<string, string>) => loadConfig(env).publicUrl;
    expect(publicUrlOf({})).toBe('http://localhost:3000');
    expect(publicUrlOf({ HOST: '0.0.0.0', PORT: '8080' })).toBe('http://localhost:8080');
    expect(publicUrlOf({ HOST: '::1' })).toBe('http://localhost:3000');
    // Bound to one other address, the server is reached there only.
    expect(publicUrlOf({ HOST: '192.168.1.20' })).toBe('http://192.168.1.20:3000');
    expect(publicUrlOf({ HOST: 'fd00::5' })).toBe('http://[fd00::5]:3000');
    expect(publicUrlOf({ HOST: '192.168.1.20', PUBLIC_URL: 'https://apply.example.edu/' })).toBe(
      'https://apply.example.edu',
    );
  });

  it('resolves relative paths from where the command was run, not the workspace folder', () => {
    const config = loadConfig({ INIT_CWD: '/srv/admissions', DATA_DIR: 'state' });
    expect(config.dataDir).toBe('/srv/admissions/state');
    expect(loadConfig({ INIT_CWD: '/srv/admissions' }).dataDir).toBe('/srv/admissions/data');
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        SECRET_KEY: 'short',
        ENABLE_DOCS: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems } = error as ConfigError;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT must be a whole number/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL must start with postgres/);
    expect(problems.join('\n')).toMatch(/SECRET_KEY must be at least 32/);
    expect(problems.join('\n')).toMatch(/ENABLE_DOCS must be true or false/);
  });
});

describe('log redaction', () => {
  it('keeps paths and allow-listed parameters, hides every other query value', () => {
    expect(redactUrl('/reset?username=a%40b.org&id=secret')).toBe(
      '/reset?username=[REDACTED]&id=[REDACTED]',
    );
    expect(redactUrl('/lookup/find?text=abc&category=hs_ceeb')).toBe(
      '/lookup/find?text=[REDACTED]&category=hs_ceeb',
    );
    expect(redactUrl('/api/profile')).toBe('/api/profile');
  });

  it("logs a failed query's SQL and cause but never its parameters (answers, e-mails)", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const failed = new DrizzleQueryError(
      'update "applications" set "answers" = $1 where "account_id" = $2',
      ['{"first_name":"Amara"}', 'amara.okonkwo@example.com'],
      cause,
    );
    logger.error({ err: failed }, 'unhandled error');
    logger.error({ err: new Error('job failed', { cause: failed }) }, 'job failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toContain('update \\"applications\\" set');
      expect(line).toContain('ECONNREFUSED');
      expect(line).not.toContain('Amara');
      expect(line).not.toContain('amara.okonkwo@example.com');
    }
  });
});

describe.each(availableDrivers())('HTTP platform on %s', (driver) => {
  let t: TestRuntime;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'admissions-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Apply</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    // What the SPA build writes beside each text asset (apps/web/build-tools/precompress-assets.ts).
    writeFileSync(
      path.join(webDist, 'assets', 'app-1234.js.br'),
      brotliCompressSync('console.log(1)'),
    );
    writeFileSync(path.join(webDist, 'assets', 'app-1234.js.gz'), gzipSync('console.log(1)'));
    t = await createTestRuntime(driver, { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('reports health once the database answers', async () => {
    const res = await t.request({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('sends the hardened security headers', async () => {
    for (const url of ['/health', '/api/profile', '/about', '/public/login']) {
      const res = await t.request({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("object-src 'none'");
      // The page's policy on the page; a JSON answer's allows nothing.
      expect(csp).toContain(url === '/about' ? "script-src 'self'" : "default-src 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('serves the SPA with history fallback and JSON 404s for API paths', async () => {
    const page = await t.request({
      method: 'GET',
      url: '/education?x=1',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Apply</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    // The address the ready line prints is the root: it is the SPA's page too, with or without a
    // query (a browser's first request, or a link from an e-mail).
    for (const url of ['/', '/?utm_source=mail']) {
      const root = await t.request({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(root.statusCode, url).toBe(200);
      expect(root.body).toContain('<title>Apply</title>');
      expect(root.headers['cache-control']).toBe('no-cache');
    }
    const asset = await t.request({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.request({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBeTruthy();
    expect(missing.headers['cache-control']).toBe('no-store');
    // The staff area's API and sign-in paths are API paths too, even for a browser asking HTML.
    for (const url of ['/staff/api/nothing-here', '/staff/auth/nothing-here']) {
      const staff = await t.request({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(staff.statusCode).toBe(404);
      expect(staff.json().message).toBeTruthy();
      expect(staff.headers['cache-control']).toBe('no-store');
    }
  });

  it('sends the pre-compressed copy of an asset to a browser that accepts it', async () => {
    const url = '/assets/app-1234.js';
    const brotli = await t.request({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log(1)');
    const gzip = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await t.request({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('treats an empty JSON body as no body, and refuses broken or poisoned JSON', async () => {
    const json = { 'content-type': 'application/json' };
    // GET /api/logout without a session: the empty body passes parsing and reaches the session check.
    const empty = await t.request({ method: 'GET', url: '/api/logout', headers: json });
    expect(empty.statusCode).toBe(401);
    const broken = await t.runtime.app.inject({
      method: 'POST',
      url: '/public/login',
      headers: json,
      payload: '{"username":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('The request body is not valid JSON.');
    const poisoned = await t.runtime.app.inject({
      method: 'POST',
      url: '/public/login',
      headers: json,
      payload: '{"username":"a@example.org","password":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });

  it("serves the institution's configuration to the SPA", async () => {
    const res = await t.request({ method: 'GET', url: '/public/partner' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(t.runtime.partner);
    expect(res.json().textAreaLimit).toBe(7000);
  });

  it('does not serve the OpenAPI UI unless enabled', async () => {
    expect((await t.request({ method: 'GET', url: '/docs' })).statusCode).toBe(404);
  });
});

describe('command-line tool', () => {
  it('prints the data dictionary as JSON and CSV', async () => {
    const cli = (args: string[]) => run(process.execPath, cliNodeArgs(args), { cwd: apiRoot });
    const json = JSON.parse((await cli(['dictionary'])).stdout) as { key: string; page: string }[];
    expect(json.find((row) => row.key === 'first_name')?.page).toBe('about');
    const csv = (await cli(['dictionary', '--format', 'csv'])).stdout.split('\n');
    expect(csv[0]).toMatch(/^page,section,key/);
    await expect(cli(['dictionary', '--format', 'xml'])).rejects.toMatchObject({
      stderr: expect.stringContaining('--format must be json or csv'),
    });
  });

  it('reaches the running server’s embedded database instead of opening its files', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-cli-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', WEB_DIST: dataDir });
    const runtime = await startRuntime(config, { logger: pino({ level: 'silent' }) });
    try {
      const { stdout } = await run(process.execPath, cliNodeArgs(['migrate']), {
        cwd: apiRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
      // "postgres": it spoke the wire protocol to the server rather than opening PGlite itself.
      expect(stdout).toContain('Migrations applied (postgres)');
      const health = await runtime.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
