// What makes an admission round valid (docs/rounds.md), wherever it comes from: the partner
// configuration (mergePartnerConfig) and the CLI's `rounds add|update` run the same checks, so a
// round the CLI refuses is also refused in PARTNER_CONFIG_FILE, with the same words.
// (partner.ts imports this file: the round's shape is restated here rather than imported back.)

/** A round's code: "EA", "RD", "2027FA-TR". The contract's RoundCode schema uses this pattern. */
export const ROUND_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/;

/** The round the migration puts every earlier application in: the one allowed no entry term. */
export const DEFAULT_ROUND_CODE = 'DEFAULT';

/** A week: a longer "grace period" would be a different deadline. */
export const MAX_GRACE_MINUTES = 10_080;

export const MAX_ROUND_NAME_LENGTH = 200;

/** A round's fields as the configuration (PartnerRound) and the CLI give them. */
export interface RoundFields {
  /** Short and stable, e.g. "EA": `PUT /api/application` and the staff filters name it. */
  code: string;
  name: string;
  /** One of the partner's `entryTerms` values, e.g. "2027FA" (empty for the default round). */
  entryTerm: string;
  opensAt: string;
  deadline: string;
  /** Minutes after the deadline during which saves and submits are still taken. */
  graceMinutes: number;
}

export type RoundField = keyof RoundFields;

/** One thing wrong with a round; `message` reads after the field's name ("--deadline must …"). */
export interface RoundProblem {
  field: RoundField;
  message: string;
}

// An instant must say its offset: "2027-01-15T23:59" alone would mean the server's zone, which
// is not the institution's. Seconds and fractions are optional.
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,6})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** True for an ISO 8601 time with a real calendar date and an offset or `Z`. */
export function isRoundInstant(value: string): boolean {
  const match = ISO_INSTANT.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.parse rolls February 30 over to March 2; a deadline typed wrong must be refused instead.
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return (
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day &&
    !Number.isNaN(Date.parse(value))
  );
}

/** True for a time zone Intl knows (an IANA name such as "America/Chicago", or "UTC"). */
export function isValidTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An example of the accepted time format, for messages. */
export const ROUND_INSTANT_EXAMPLE = '2027-01-15T23:59:00-06:00';

/**
 * Every problem of a whole round (none: it is valid). `entryTerms` are the partner's entry terms'
 * values; only the default round may have an empty entry term.
 */
export function checkRound(round: RoundFields, entryTerms: readonly string[]): RoundProblem[] {
  const problems: RoundProblem[] = [];
  if (!ROUND_CODE_PATTERN.test(round.code)) {
    problems.push({
      field: 'code',
      message: `must be 1 to 20 letters, digits, "-" or "_", starting with a letter or digit (such as EA), not "${round.code}"`,
    });
  }
  if (round.name.trim() === '') problems.push({ field: 'name', message: 'must not be empty' });
  else if (round.name.length > MAX_ROUND_NAME_LENGTH) {
    problems.push({
      field: 'name',
      message: `must be at most ${MAX_ROUND_NAME_LENGTH} characters`,
    });
  }
  const defaultWithoutTerm = round.code === DEFAULT_ROUND_CODE && round.entryTerm === '';
  if (!defaultWithoutTerm && !entryTerms.includes(round.entryTerm)) {
    problems.push({
      field: 'entryTerm',
      message: `must be one of the entry terms of the partner configuration (${entryTerms.join(', ')}), not "${round.entryTerm}"`,
    });
  }
  const opensOk = isRoundInstant(round.opensAt);
  const deadlineOk = isRoundInstant(round.deadline);
  for (const [field, ok] of [
    ['opensAt', opensOk],
    ['deadline', deadlineOk],
  ] as const) {
    if (!ok) {
      problems.push({
        field,
        message: `must be an ISO 8601 time with its offset or Z, such as ${ROUND_INSTANT_EXAMPLE}, not "${round[field]}"`,
      });
    }
  }
  if (opensOk && deadlineOk && Date.parse(round.deadline) <= Date.parse(round.opensAt)) {
    problems.push({ field: 'deadline', message: 'must be after the opening time' });
  }
  if (
    !Number.isInteger(round.graceMinutes) ||
    round.graceMinutes < 0 ||
    round.graceMinutes > MAX_GRACE_MINUTES
  ) {
    problems.push({
      field: 'graceMinutes',
      message: `must be a whole number of minutes from 0 to ${MAX_GRACE_MINUTES} (7 days)`,
    });
  }
  return problems;
}
