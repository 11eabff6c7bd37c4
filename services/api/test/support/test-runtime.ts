import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/platform/config';
import { PGLITE_EXTENSIONS } from '../../src/platform/db/pglite-extensions';
import { createLogger } from '../../src/platform/logging/logger';
import { createManualClock, type ManualClock } from '../../src/platform/lib/clock';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../src/boot/runtime';

export type Driver = 'pglite' | 'postgres';

/** The drivers this run can test: PGlite always, PostgreSQL when the global setup found one. */
export function availableDrivers(): Driver[] {
  return inject('postgresUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * The one driver for a file whose subject is not the database (converting files, rendering PDFs,
 * the HTTP layer). PGlite is PostgreSQL itself, so running such a file on both tested the same SQL
 * twice; what differs between the drivers (connections, locks, concurrent writers, how values
 * come back) is what the files on availableDrivers() cover, and the browser suite runs the
 * embedded PGlite end to end. PostgreSQL when the run has it: its queries cost the test process
 * no CPU, where PGlite's WebAssembly shares the core with the rendering and conversions.
 */
export function primaryDriver(): Driver[] {
  return inject('postgresUrl') ? ['postgres'] : ['pglite'];
}

/** A database before start-up: the PGlite itself, or PostgreSQL's address. */
export type PreparedDatabase = { pglite: PGlite } | { url: string };

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

export interface TestRuntime {
  runtime: Runtime;
  /** The configuration the runtime was started with (the CLI tests hand it to the CLI). */
  config: Config;
  clock: ManualClock;
  dataDir: string;
  /** Every log line the app wrote, for the secret sweep. */
  logs: string[];
  request(options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    body?: unknown;
    cookies?: Record<string, string>;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  /** Waits for the next e-mail to `to` that arrived after `since` messages. */
  waitForMail(to: string, matching?: RegExp): Promise<OutboxMessage>;
  close(): Promise<void>;
}

async function createPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function createTestRuntime(
  driver: Driver,
  env: Record<string, string> = {},
  options: Pick<RuntimeOptions, 'renderPdf' | 'logQuery'> & {
    /** PGlite opens its files under DATA_DIR as the embedded server does (slower: a fresh database). */
    pgliteOnDisk?: boolean;
    /** Runs on the empty DATA_DIR before start-up (files an older version left there). */
    prepareDataDir?: (dataDir: string) => void;
    /**
     * Runs on an empty database (a fresh PGlite, not the migrated snapshot) before start-up,
     * whose migrations then take it to the head: a database an older version left.
     */
    prepareDatabase?: (target: PreparedDatabase, dataDir: string) => Promise<void>;
  } = {},
): Promise<TestRuntime> {
  const { pgliteOnDisk, prepareDataDir, prepareDatabase, ...runtimeOptions } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-test-'));
  prepareDataDir?.(dataDir);
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let pglite: PGlite | undefined;
  if (pgliteOnDisk) {
    if (driver !== 'pglite') throw new Error('pgliteOnDisk is for the pglite driver');
  } else if (driver === 'postgres') {
    const adminUrl = inject('postgresUrl');
    if (!adminUrl) throw new Error('PostgreSQL is not available for this run');
    ({ url: databaseUrl, drop } = await createPostgresDatabase(adminUrl));
    if (prepareDatabase) await prepareDatabase({ url: databaseUrl }, dataDir);
  } else if (prepareDatabase) {
    pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await pglite.waitReady;
    await prepareDatabase({ pglite }, dataDir);
  } else {
    const snapshot = readFileSync(inject('pgliteSnapshot'));
    pglite = new PGlite({ loadDataDir: new Blob([snapshot]), extensions: PGLITE_EXTENSIONS });
    await pglite.waitReady;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    PUBLIC_RATE_LIMIT: '10000',
    GLOBAL_RATE_LIMIT: '100000',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    // PGlite's synchronous work in a test process (loading a snapshot, another runtime starting)
    // can stall the loop for a second: load shedding only where a test asks for it.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const clock = createManualClock(new Date('2026-11-22T12:00:00Z'));
  const runtime = await startRuntime(config, { logger, clock, pglite, ...runtimeOptions });
  const seen = new Set<string>();

  return {
    runtime,
    config,
    clock,
    dataDir,
    logs,
    request({ method, url, body, cookies, headers }) {
      return runtime.app.inject({
        method,
        url,
        ...(body === undefined ? {} : { payload: body as object }),
        cookies,
        // As the SPA does: a JSON content type on every state change, body or not (a DELETE,
        // POST /api/submit), which the API requires.
        headers: method === 'GET' ? headers : { 'content-type': 'application/json', ...headers },
      });
    },
    async waitForMail(to, matching) {
      const outbox = path.join(dataDir, 'outbox');
      for (let attempt = 0; attempt < 200; attempt++) {
        let files: string[] = [];
        try {
          files = readdirSync(outbox)
            .filter((f) => f.endsWith('.json'))
            .sort();
        } catch {
          // Not created until the first message.
        }
        for (const file of files) {
          if (seen.has(file)) continue;
          const message = JSON.parse(
            await readFile(path.join(outbox, file), 'utf8'),
          ) as OutboxMessage;
          if (message.to === to && (!matching || matching.test(message.subject))) {
            seen.add(file);
            return message;
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`No e-mail to ${to} arrived`);
    },
    async close() {
      await runtime.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The cookies a response set, by name. */
export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const c of response.cookies) jar[c.name] = c.value;
  return jar;
}

export function codeFrom(message: OutboxMessage): string {
  const match = /confirmation code is (\d{6})/.exec(message.text);
  if (!match?.[1]) throw new Error('No code in the message');
  return match[1];
}

export function resetIdFrom(message: OutboxMessage): { url: URL; id: string } {
  const match = /(https?:\/\/\S+\/reset\?\S+)/.exec(message.text);
  if (!match?.[1]) throw new Error('No reset link in the message');
  const url = new URL(match[1]);
  return { url, id: url.searchParams.get('id') ?? '' };
}

export const TEST_PASSWORD = 'Cobalt-Lantern-River-58';

/** Signs up, confirms and logs in through the real routes; returns the session cookies. */
export async function registerApplicant(
  t: TestRuntime,
  email: string,
  password = TEST_PASSWORD,
): Promise<Record<string, string>> {
  const post = (url: string, body: unknown) => t.request({ method: 'POST', url, body });
  await post('/public/signup', { username: email, password });
  const code = codeFrom(await t.waitForMail(email, /confirmation code/));
  const confirmed = await post('/public/confirm', { username: email, code });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  const login = await post('/public/login', { username: email, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return cookiesOf(login);
}

/** Counts outbox messages to `to` whose subject matches. */
export function countMail(t: TestRuntime, to: string, subject: RegExp): number {
  const outbox = path.join(t.dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith('.json'));
  } catch {
    return 0;
  }
  return files
    .map((f) => JSON.parse(readFileSync(path.join(outbox, f), 'utf8')) as OutboxMessage)
    .filter((m) => m.to === to && subject.test(m.subject)).length;
}
