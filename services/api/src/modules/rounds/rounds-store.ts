// The rounds table: the only code that writes it. A round is checked by packages/form's
// checkRound wherever it comes from (the partner configuration, the CLI), and each write is one
// statement or one transaction under the row's lock, so two operators adding the same code at
// once get one round and one "already exists".
import { asc, eq, sql } from 'drizzle-orm';
import {
  checkRound,
  type PartnerConfig,
  type RoundField,
  type RoundFields,
  type RoundProblem,
} from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { rounds } from './schema';

export type Round = typeof rounds.$inferSelect;

/** The fields `rounds update` may change; the code is the round's identity and never changes. */
export type RoundChanges = Partial<Omit<RoundFields, 'code'>>;

/** A round's fields were refused; `problems` names each field (the CLI says them as flags). */
export class RoundInvalidError extends Error {
  constructor(readonly problems: RoundProblem[]) {
    super(problems.map((p) => `${p.field} ${p.message}`).join('; '));
  }
}

export class RoundExistsError extends Error {
  constructor(readonly code: string) {
    super(`A round with the code "${code}" already exists.`);
  }
}

export class RoundNotFoundError extends Error {
  constructor(readonly code: string) {
    super(`There is no admission round with the code "${code}".`);
  }
}

function entryTermsOf(partner: Pick<PartnerConfig, 'entryTerms'>): string[] {
  return partner.entryTerms.map((term) => term.value);
}

function toFields(round: Round): RoundFields {
  return {
    code: round.code,
    name: round.name,
    entryTerm: round.entryTerm,
    opensAt: round.opensAt.toISOString(),
    deadline: round.deadline.toISOString(),
    graceMinutes: round.graceMinutes,
  };
}

function toRow(fields: RoundFields) {
  return {
    code: fields.code,
    name: fields.name.trim(),
    entryTerm: fields.entryTerm,
    opensAt: new Date(fields.opensAt),
    deadline: new Date(fields.deadline),
    graceMinutes: fields.graceMinutes,
  };
}

/** Every round, the earliest deadline first. */
export async function listRounds(db: Db): Promise<Round[]> {
  return db.select().from(rounds).orderBy(asc(rounds.deadline), asc(rounds.code));
}

export async function findRound(db: Db, code: string): Promise<Round | null> {
  const [row] = await db.select().from(rounds).where(eq(rounds.code, code));
  return row ?? null;
}

/** Adds a round; RoundInvalidError for bad fields, RoundExistsError when the code is taken. */
export async function addRound(
  db: Db,
  fields: RoundFields,
  partner: Pick<PartnerConfig, 'entryTerms'>,
): Promise<Round> {
  const problems = checkRound(fields, entryTermsOf(partner));
  if (problems.length > 0) throw new RoundInvalidError(problems);
  // The primary key decides between concurrent adds: no read before the write.
  const [row] = await db
    .insert(rounds)
    .values(toRow(fields))
    .onConflictDoNothing({ target: rounds.code })
    .returning();
  if (!row) throw new RoundExistsError(fields.code);
  return row;
}

/**
 * Changes some fields of a round. The merged round is checked (a new deadline against the stored
 * opening time, say) under the row's lock, so two updates cannot each pass on the other's old
 * values. Only the changed fields are judged: a round whose entry term the partner no longer
 * lists can still have its deadline moved.
 */
export async function updateRound(
  db: Db,
  code: string,
  changes: RoundChanges,
  partner: Pick<PartnerConfig, 'entryTerms'>,
): Promise<Round> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(rounds).where(eq(rounds.code, code)).for('update');
    if (!current) throw new RoundNotFoundError(code);
    const merged: RoundFields = { ...toFields(current), ...changes, code };
    const changed = new Set(Object.keys(changes) as RoundField[]);
    const timesChanged = changed.has('opensAt') || changed.has('deadline');
    const problems = checkRound(merged, entryTermsOf(partner)).filter(
      (p) => changed.has(p.field) || (timesChanged && p.field === 'deadline'),
    );
    if (problems.length > 0) throw new RoundInvalidError(problems);
    const [row] = await tx
      .update(rounds)
      .set({ ...toRow(merged), updatedAt: sql`now()` })
      .where(eq(rounds.code, code))
      .returning();
    if (!row) throw new RoundNotFoundError(code);
    return row;
  });
}

/**
 * At start-up: the configuration's rounds that the table does not hold yet are added. A round
 * already there is left as it is, even when the file now says otherwise — a deadline extended
 * with `rounds update` must not snap back at the next restart (docs/rounds.md). The rounds were
 * checked when the configuration was loaded (mergePartnerConfig). Returns the codes added.
 */
export async function syncPartnerRounds(
  db: Db,
  partner: Pick<PartnerConfig, 'rounds'>,
): Promise<string[]> {
  if (partner.rounds.length === 0) return [];
  const added = await db
    .insert(rounds)
    .values(partner.rounds.map(toRow))
    .onConflictDoNothing({ target: rounds.code })
    .returning({ code: rounds.code });
  return added.map((row) => row.code);
}
