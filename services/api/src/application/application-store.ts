import { eq, sql } from 'drizzle-orm';
import { MESSAGES } from '@admissions/api-contract';
import type { Db } from '../db/connect';
import { applications } from '../db/schema';
import { AppError } from '../lib/app-error';
import { seal, unseal } from '../lib/crypto';

/** Answers encrypted at rest (GUIDE §3.7); everything else is plain JSONB. */
export const ENCRYPTED_ANSWER_KEYS: ReadonlySet<string> = new Set([
  'ssn',
  'alien_registration_number',
]);

export type ApplicationRow = typeof applications.$inferSelect;

/** Splits answers into the plain part and the sealed part, ready for the two JSONB columns. */
export function splitSensitive(answers: Record<string, string>, key: Buffer) {
  const plain: Record<string, string> = {};
  const sealed: Record<string, string> = {};
  for (const [k, v] of Object.entries(answers)) {
    if (ENCRYPTED_ANSWER_KEYS.has(k)) sealed[k] = seal(key, v);
    else plain[k] = v;
  }
  return { plain, sealed };
}

/** The applicant's whole answer set, sensitive answers decrypted. */
export function readAnswers(row: ApplicationRow, key: Buffer): Record<string, string> {
  const answers = { ...row.answer };
  for (const [k, v] of Object.entries(row.sensitive)) answers[k] = unseal(key, v);
  return answers;
}

export async function findApplication(db: Db, userId: string): Promise<ApplicationRow | undefined> {
  const rows = await db.select().from(applications).where(eq(applications.userId, userId)).limit(1);
  return rows[0];
}

/**
 * Runs one UPDATE of an application that is not yet submitted. A submitted application answers
 * 409 for every mutation (GUIDE §3.6); a missing row (an account confirmed before applications
 * existed) is created and the update retried.
 */
export async function updateUnsubmitted(
  db: Db,
  userId: string,
  set: Record<string, unknown>,
): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const updated = await db
      .update(applications)
      .set(set)
      .where(sql`${applications.userId} = ${userId} AND ${applications.submittedAt} IS NULL`)
      .returning({ userId: applications.userId });
    if (updated.length > 0) return;
    const existing = await findApplication(db, userId);
    if (existing) throw new AppError(409, 'ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
    await db.insert(applications).values({ userId }).onConflictDoNothing();
  }
  throw new AppError(409, 'ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
}

/** A JSONB value for a parameter, identical on PGlite and node-postgres. */
export function jsonb(value: unknown) {
  return sql`${JSON.stringify(value)}::jsonb`;
}
