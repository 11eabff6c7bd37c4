// `service-token` and `prefill`: links an operator hands to staff or to a prospective applicant.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API_ROUTES, PRINT_VIEW_PATH } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/connect';
import { findAccountByEmail } from '../../modules/auth';
import { systemClock } from '../../platform/lib/clock';
import { loadSecrets } from '../../platform/lib/crypto';
import { loadPartner } from '../../platform/partner';
import {
  PREFILL_DEFAULT_TTL_MS,
  PREFILL_MAX_TTL_MS,
  checkPrefillAnswers,
  findCurrentApplicationId,
  hasNoApplications,
  storePrefill,
} from '../../modules/application';
import {
  SERVICE_TOKEN_DEFAULT_TTL_MS,
  SERVICE_TOKEN_MAX_TTL_MS,
  mintServiceToken,
  parseDuration,
} from '../../modules/service';

export class CliUsageError extends Error {}

function readTtl(raw: string | undefined, fallback: number, max: number, maxText: string): number {
  if (raw === undefined) return fallback;
  const ms = parseDuration(raw);
  if (ms === null) {
    throw new CliUsageError(
      `--ttl "${raw}" is not a duration: use a number and a unit, such as 90s, 15m, 2h or 7d.`,
    );
  }
  if (ms > max) throw new CliUsageError(`--ttl may be at most ${maxText}.`);
  return ms;
}

function describeTtl(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}

function link(config: Config, pathname: string, params: Record<string, string>): string {
  const url = new URL(pathname, config.publicUrl);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

export async function runServiceToken(
  config: Config,
  args: string[],
  openDatabase: () => Promise<Database>,
): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, ttl: { type: 'string' }, json: { type: 'boolean' } },
  });
  const email = values.email?.trim().toLowerCase();
  if (!email) throw new CliUsageError('--email is required (the applicant’s e-mail address).');
  const ttlMs = readTtl(
    values.ttl,
    SERVICE_TOKEN_DEFAULT_TTL_MS,
    SERVICE_TOKEN_MAX_TTL_MS,
    '24h (a staff link is short-lived)',
  );
  const database = await openDatabase();
  let applicationId: string | undefined;
  let emptiness = '';
  try {
    const userId = (await findAccountByEmail(database.db, email))?.id;
    // The applicant's current application: the one their own requests act on.
    applicationId = userId ? await findCurrentApplicationId(database.db, userId) : undefined;
    if (!applicationId && (await hasNoApplications(database.db))) {
      emptiness = ' That database holds no applications yet.';
    }
  } finally {
    await database.close();
  }
  if (!applicationId) {
    throw new CliUsageError(`No applicant has the e-mail address ${email}.${emptiness}`);
  }
  const secrets = await loadSecrets(config.secretKey, config.dataDir);
  const { token, claims } = mintServiceToken(secrets.serviceTokenKey, {
    applicationId,
    now: systemClock.now(),
    ttlMs,
  });
  const printView = link(config, PRINT_VIEW_PATH, { service_token: token });
  const pdf = link(config, API_ROUTES.servicePdf, { service_token: token });
  const expiresAt = new Date(claims.exp * 1000).toISOString();
  if (values.json) {
    console.log(JSON.stringify({ token, id: claims.jti, expiresAt, printView, pdf, email }));
    return;
  }
  console.log(
    [
      `Read-only staff token for ${email}, valid ${describeTtl(ttlMs)} (until ${expiresAt}), id ${claims.jti}:`,
      token,
      '',
      `Print view: ${printView}`,
      `PDF:        ${pdf}`,
    ].join('\n'),
  );
}

export async function runPrefill(
  config: Config,
  args: string[],
  openDatabase: () => Promise<Database>,
): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { file: { type: 'string' }, ttl: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (!values.file) {
    throw new CliUsageError('--file is required (a JSON object of answer keys to text values).');
  }
  const ttlMs = readTtl(values.ttl, PREFILL_DEFAULT_TTL_MS, PREFILL_MAX_TTL_MS, '90d');
  let raw: unknown;
  try {
    // npm runs the CLI inside services/api; a relative path means where the command was typed.
    raw = JSON.parse(await readFile(path.resolve(config.invokedFrom, values.file), 'utf8'));
  } catch (error) {
    throw new CliUsageError(`Cannot read ${values.file}: ${(error as Error).message}`);
  }
  const problems = checkPrefillAnswers(raw, await loadPartner(config));
  if (problems.length > 0) {
    throw new CliUsageError(
      `Nothing was stored. ${values.file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  const database = await openDatabase();
  let stored: { token: string; expiresAt: Date };
  try {
    stored = await storePrefill(database.db, raw as Record<string, string>, {
      now: systemClock.now(),
      ttlMs,
    });
  } finally {
    await database.close();
  }
  const url = link(config, '/about', { token: stored.token });
  const count = Object.keys(raw as object).length;
  if (values.json) {
    console.log(JSON.stringify({ url, token: stored.token, expiresAt: stored.expiresAt, count }));
    return;
  }
  console.log(
    [
      `Prefilled ${count} answer${count === 1 ? '' : 's'}, valid ${describeTtl(ttlMs)} (until ${stored.expiresAt.toISOString()}):`,
      url,
    ].join('\n'),
  );
}
