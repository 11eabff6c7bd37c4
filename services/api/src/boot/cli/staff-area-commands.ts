// `npm run cli -- staff …`: local staff accounts and campus-system API keys. `staff add` prints a
// one-time set-up link (24 h) rather than taking a password: the operator never sees, types or
// logs the staff member's password, and the link works once.
import { parseArgs } from 'node:util';
import { STAFF_ROLES, STAFF_ROUTES, type StaffRole } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import { systemClock } from '../../platform/lib/clock';
import { loadSecrets } from '../../platform/lib/crypto';
import { CliUsageError } from './staff-commands';
import {
  API_KEY_SCOPES,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeyScope,
} from '../../modules/staff';
import { createStaffAccounts, STAFF_SETUP_TTL_MS } from '../../modules/staff';

export const STAFF_USAGE = `  staff add --email E --role reader|exporter|processor
                                  create a local staff account; prints its one-time set-up link
                                  (valid 24h) where the member chooses a password, then enrols TOTP
  staff list                      list staff members (e-mail, role, source, state)
  staff disable --email E         disable a staff member and end their sessions
  staff api-key create --name N --scope read|export|write-ids
                                  create an API key for a campus system (shown once)
  staff api-key list | staff api-key revoke --id ID`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function runStaffCommand(
  config: Config,
  args: string[],
  openDatabase: () => Promise<Database>,
): Promise<number> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string' },
      id: { type: 'string' },
    },
  });
  const withDatabase = async <T>(run: (database: Database) => Promise<T>): Promise<T> => {
    const database = await openDatabase();
    try {
      return await run(database);
    } finally {
      await database.close();
    }
  };
  const accountsOf = async (database: Database) => {
    const secrets = await loadSecrets(config.secretKey, config.dataDir);
    return createStaffAccounts({
      db: database.db,
      clock: systemClock,
      encryptionKey: secrets.encryptionKey,
    });
  };

  switch (action) {
    case 'add': {
      const email = values.email?.trim();
      if (!email) throw new CliUsageError('--email is required.');
      const role = values.role as StaffRole | undefined;
      if (!role || !STAFF_ROLES.includes(role)) {
        throw new CliUsageError(`--role must be ${STAFF_ROLES.join(' or ')}.`);
      }
      const { member, setupToken } = await withDatabase(async (database) => {
        try {
          return await (await accountsOf(database)).add({ email, role });
        } catch (error) {
          if (error instanceof AppError) throw new CliUsageError(error.message);
          throw error;
        }
      });
      const url = new URL(STAFF_ROUTES.setupPage, config.publicUrl);
      url.searchParams.set('token', setupToken);
      console.log(
        [
          `Staff member ${member.email} (${member.role}) created.`,
          `One-time set-up link (valid ${STAFF_SETUP_TTL_MS / 3_600_000}h): ${url.toString()}`,
        ].join('\n'),
      );
      return 0;
    }
    case 'list': {
      const members = await withDatabase(async (database) => (await accountsOf(database)).list());
      for (const m of members) {
        const state = m.disabledAt
          ? 'disabled'
          : m.source === 'oidc'
            ? 'active'
            : !m.passwordHash
              ? 'set-up link not used'
              : m.totpConfirmedAt
                ? 'active'
                : 'TOTP not enrolled';
        console.log(`${m.email}\t${m.role}\t${m.source}\t${state}`);
      }
      if (members.length === 0) console.log('No staff members.');
      return 0;
    }
    case 'disable': {
      const email = values.email?.trim();
      if (!email) throw new CliUsageError('--email is required.');
      const done = await withDatabase(async (database) =>
        (await accountsOf(database)).disable(email),
      );
      if (!done) throw new CliUsageError(`No active staff member has the e-mail address ${email}.`);
      console.log(`Staff member ${email.toLowerCase()} disabled; their sessions ended.`);
      return 0;
    }
    case 'api-key': {
      const sub = positionals[0];
      if (sub === 'create') {
        const name = values.name?.trim();
        if (!name || name.length > 100)
          throw new CliUsageError('--name is required (at most 100 characters).');
        const scope = values.scope as ApiKeyScope | undefined;
        if (!scope || !API_KEY_SCOPES.includes(scope)) {
          throw new CliUsageError(`--scope must be ${API_KEY_SCOPES.join(' or ')}.`);
        }
        const created = await withDatabase((database) =>
          createApiKey(database.db, { name, scope, now: systemClock.now() }),
        );
        console.log(
          [
            `API key "${name}" (scope ${scope}), id ${created.id}. Shown once — store it now:`,
            created.key,
          ].join('\n'),
        );
        return 0;
      }
      if (sub === 'revoke') {
        const id = values.id?.trim() ?? '';
        if (!UUID.test(id)) throw new CliUsageError('--id must be the key id printed by create.');
        const done = await withDatabase((database) =>
          revokeApiKey(database.db, id, systemClock.now()),
        );
        if (!done) throw new CliUsageError(`No live API key has the id ${id}.`);
        console.log(`API key ${id} revoked.`);
        return 0;
      }
      if (sub === 'list') {
        const keys = await withDatabase((database) => listApiKeys(database.db));
        for (const k of keys) {
          console.log(`${k.id}\t${k.name}\t${k.scope}\t${k.revokedAt ? 'revoked' : 'live'}`);
        }
        if (keys.length === 0) console.log('No API keys.');
        return 0;
      }
      throw new CliUsageError(`Usage:\n${STAFF_USAGE}`);
    }
    default:
      throw new CliUsageError(`Usage:\n${STAFF_USAGE}`);
  }
}
