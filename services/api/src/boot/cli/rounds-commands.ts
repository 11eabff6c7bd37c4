// `npm run cli -- rounds list|add|update`: the admission rounds (docs/rounds.md). Times are typed
// as ISO 8601 with their offset and printed in the institution's time zone, as applicants read
// them. A round changed here keeps its changes over the partner configuration's (start-up only
// adds the configuration's missing rounds).
import { parseArgs } from 'node:util';
import { checkRound, formatRoundTime, type RoundField, type RoundFields } from '@admissions/form';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/connect';
import { loadPartner } from '../../platform/partner';
import {
  RoundExistsError,
  RoundInvalidError,
  RoundNotFoundError,
  addRound,
  listRounds,
  updateRound,
  type Round,
  type RoundChanges,
} from '../../modules/rounds';
import { CliUsageError } from './staff-commands';

export const ROUNDS_USAGE = `  rounds list                     list the admission rounds: code, name, entry term, opening and
                                  deadline in the institution's time zone, grace period
  rounds add --code EA --name "Early Action" --entry-term 2027FA --opens-at ISO --deadline ISO
         [--grace-minutes N]      add a round (times such as 2026-11-01T23:59:00-05:00)
  rounds update --code EA [--name N] [--entry-term T] [--opens-at ISO] [--deadline ISO]
         [--grace-minutes N]      change a round's fields (its code stays)`;

const FLAGS: Record<RoundField, string> = {
  code: '--code',
  name: '--name',
  entryTerm: '--entry-term',
  opensAt: '--opens-at',
  deadline: '--deadline',
  graceMinutes: '--grace-minutes',
};

function describeRound(round: Round, timeZone: string): string {
  const grace = round.graceMinutes > 0 ? `\tgrace ${round.graceMinutes} min` : '';
  return [
    round.code,
    round.name,
    round.entryTerm === '' ? '(no entry term)' : round.entryTerm,
    `opens ${formatRoundTime(round.opensAt, timeZone)}`,
    `deadline ${formatRoundTime(round.deadline, timeZone)}${grace}`,
  ].join('\t');
}

function readGraceMinutes(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  // Number('') is 0 and Number('1e3') 1000: only plain digits are minutes.
  if (!/^\d{1,6}$/.test(raw.trim())) {
    throw new CliUsageError(
      `--grace-minutes must be a whole number of minutes from 0 to 10080 (7 days), not "${raw}".`,
    );
  }
  return Number(raw.trim());
}

/** The store's refusals as the operator typed the command: flags, one line each. */
function explainRefusal(error: unknown): never {
  if (error instanceof RoundInvalidError) {
    throw new CliUsageError(
      error.problems.map((p) => `${FLAGS[p.field]} ${p.message}.`).join('\n'),
    );
  }
  if (error instanceof RoundExistsError) {
    throw new CliUsageError(
      `${error.message} Change it with: npm run cli -- rounds update --code ${error.code} …`,
    );
  }
  if (error instanceof RoundNotFoundError) {
    throw new CliUsageError(`${error.message} See them with: npm run cli -- rounds list`);
  }
  throw error;
}

export async function runRoundsCommand(
  config: Config,
  args: string[],
  openDatabase: () => Promise<Database>,
): Promise<number> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      code: { type: 'string' },
      name: { type: 'string' },
      'entry-term': { type: 'string' },
      'opens-at': { type: 'string' },
      deadline: { type: 'string' },
      'grace-minutes': { type: 'string' },
    },
  });
  const partner = await loadPartner(config);
  const withDatabase = async <T>(run: (database: Database) => Promise<T>): Promise<T> => {
    const database = await openDatabase();
    try {
      return await run(database);
    } catch (error) {
      explainRefusal(error);
    } finally {
      await database.close();
    }
  };
  const given: RoundChanges = {
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values['entry-term'] === undefined ? {} : { entryTerm: values['entry-term'].trim() }),
    ...(values['opens-at'] === undefined ? {} : { opensAt: values['opens-at'].trim() }),
    ...(values.deadline === undefined ? {} : { deadline: values.deadline.trim() }),
  };
  const grace = readGraceMinutes(values['grace-minutes']);
  if (grace !== undefined) given.graceMinutes = grace;
  const code = values.code?.trim();

  switch (action) {
    case 'list': {
      const all = await withDatabase((database) => listRounds(database.db));
      console.log(`Times in ${partner.timeZone}.`);
      for (const round of all) console.log(describeRound(round, partner.timeZone));
      if (all.length === 0) console.log('No rounds.');
      return 0;
    }
    case 'add': {
      const required = ['code', 'name', 'entryTerm', 'opensAt', 'deadline'] as const;
      const fields = { graceMinutes: 0, ...given, code: code ?? '' };
      const missing = required.filter(
        (field) => fields[field] === undefined || fields[field] === '',
      );
      if (missing.length > 0) {
        throw new CliUsageError(
          `${missing.map((field) => FLAGS[field]).join(', ')} ${missing.length === 1 ? 'is' : 'are'} required.\n\nUsage:\n${ROUNDS_USAGE}`,
        );
      }
      // Checked before the database is opened: a typo is explained without touching it. The
      // store checks again (its callers are not all this command).
      const problems = checkRound(
        fields as RoundFields,
        partner.entryTerms.map((t) => t.value),
      );
      if (problems.length > 0) explainRefusal(new RoundInvalidError(problems));
      const round = await withDatabase((database) =>
        addRound(database.db, fields as RoundFields, partner),
      );
      console.log(`Round added:\n${describeRound(round, partner.timeZone)}`);
      return 0;
    }
    case 'update': {
      if (!code) throw new CliUsageError(`--code is required.\n\nUsage:\n${ROUNDS_USAGE}`);
      if (Object.keys(given).length === 0) {
        throw new CliUsageError(
          'Nothing to change: give at least one of --name, --entry-term, --opens-at, --deadline or --grace-minutes.',
        );
      }
      const round = await withDatabase((database) =>
        updateRound(database.db, code, given, partner),
      );
      console.log(`Round updated:\n${describeRound(round, partner.timeZone)}`);
      return 0;
    }
    default:
      throw new CliUsageError(`Usage:\n${ROUNDS_USAGE}`);
  }
}
