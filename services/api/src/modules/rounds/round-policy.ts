// A round's rules as the application module enforces them: when it closes, whether it is open,
// and the words of a refusal. Read-only: the rounds module's store is the table's one writer.
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { ROUND_MESSAGES, fillRoundMessage, type RoundSummary } from '@admissions/api-contract';
import { formatRoundTime } from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import { rounds } from './schema';

export type RoundRow = typeof rounds.$inferSelect;

/** A round as its rules need it. */
export type RoundTimes = Pick<RoundRow, 'code' | 'name' | 'opensAt' | 'deadline' | 'graceMinutes'>;

/** The last moment a save or submit of the round is taken: its deadline plus the grace period. */
export function readClosesAt(round: Pick<RoundRow, 'deadline' | 'graceMinutes'>): Date {
  return new Date(round.deadline.getTime() + round.graceMinutes * 60_000);
}

/** opens_at ≤ at < closes_at. */
export function isRoundOpen(round: RoundTimes, at: Date): boolean {
  return round.opensAt.getTime() <= at.getTime() && at.getTime() < readClosesAt(round).getTime();
}

/** True once `at` is at or past the round's deadline plus grace. */
export function isRoundClosed(round: RoundTimes, at: Date): boolean {
  return at.getTime() >= readClosesAt(round).getTime();
}

/**
 * The closing time of the round whose code is `roundCode` (a column or value), as SQL: for a
 * write's WHERE, so the deadline is read in the same statement as the write and a deadline
 * changed concurrently is respected.
 */
export function roundClosesAtSql(roundCode: SQL | string): SQL {
  return sql`(SELECT r.deadline + r.grace_minutes * interval '1 minute'
    FROM ${rounds} r WHERE r.code = ${roundCode})`;
}

/** SQL true while the round `roundCode` still takes writes received at `receivedAt`. */
export function isRoundOpenForWriteSql(roundCode: SQL, receivedAt: SQL): SQL {
  return sql`${receivedAt} < ${roundClosesAtSql(roundCode)}`;
}

/** 409 ROUND_CLOSED naming the round and its deadline in the institution's time zone. */
export function createRoundClosedError(round: RoundTimes, timeZone: string): AppError {
  return new AppError(
    'ROUND_CLOSED',
    fillRoundMessage(ROUND_MESSAGES.closed, {
      round: round.name,
      deadline: formatDeadline(round.deadline, timeZone),
    }),
  );
}

// After a deadline every refused save writes this sentence, and formatting a time in a zone
// builds two Intl formatters (about 0.26 ms): each deadline's words are kept once made.
const deadlineWords = new Map<string, string>();

function formatDeadline(deadline: Date, timeZone: string): string {
  const key = `${deadline.getTime()} ${timeZone}`;
  let words = deadlineWords.get(key);
  if (words === undefined) {
    words = formatRoundTime(deadline, timeZone);
    // A deadline changed by the CLI adds a key; a long-running server keeps only a few.
    if (deadlineWords.size >= 64) deadlineWords.clear();
    deadlineWords.set(key, words);
  }
  return words;
}

/** 409 ROUND_NOT_OPEN saying when the round opens. */
export function createRoundNotOpenError(round: RoundTimes, timeZone: string): AppError {
  return new AppError(
    'ROUND_NOT_OPEN',
    fillRoundMessage(ROUND_MESSAGES.notOpen, {
      round: round.name,
      opens: formatRoundTime(round.opensAt, timeZone),
    }),
  );
}

/** 404 ROUND_NOT_FOUND naming the code asked for. */
export function createRoundNotFoundError(code: string): AppError {
  return new AppError('ROUND_NOT_FOUND', fillRoundMessage(ROUND_MESSAGES.notFound, { code }));
}

/** One round by its code. */
export async function readRoundPolicy(db: Db, code: string): Promise<RoundRow | undefined> {
  const [row] = await db.select().from(rounds).where(eq(rounds.code, code)).limit(1);
  return row;
}

/** Every round, by deadline. */
export async function listRoundPolicies(db: Db): Promise<RoundRow[]> {
  return db.select().from(rounds).orderBy(asc(rounds.deadline), asc(rounds.code));
}

/** A round as the API shows it (RoundSummary), judged open at `now`. */
export function describeRound(round: RoundRow, now: Date): RoundSummary {
  return {
    code: round.code,
    name: round.name,
    entry_term: round.entryTerm,
    opens_at: round.opensAt.toISOString(),
    deadline: round.deadline.toISOString(),
    closes_at: readClosesAt(round).toISOString(),
    open: isRoundOpen(round, now),
  };
}

/**
 * The round a new applicant starts in, as SQL yielding one code at `now`: the open round that
 * closes first; when none is open, the round that closed last; when none has opened yet, the
 * one that opens first.
 */
export function startingRoundSql(now: SQL): SQL {
  const closesAt = sql`r.deadline + r.grace_minutes * interval '1 minute'`;
  return sql`(SELECT r.code FROM ${rounds} r ORDER BY
    CASE WHEN r.opens_at <= ${now} AND ${now} < ${closesAt} THEN 0
      WHEN ${closesAt} <= ${now} THEN 1 ELSE 2 END,
    CASE WHEN r.opens_at <= ${now} AND ${now} < ${closesAt} THEN ${closesAt} END ASC,
    CASE WHEN ${closesAt} <= ${now} THEN ${closesAt} END DESC,
    r.opens_at ASC, r.code ASC
    LIMIT 1)`;
}
