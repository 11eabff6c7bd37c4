import { eq, sql } from 'drizzle-orm';
import { MESSAGES } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { applications } from './schema';
import { AppError } from '../../platform/lib/app-error';
import { seal, unseal } from '../../platform/lib/crypto';

/** Answers encrypted at rest (docs/design-decisions.md, 7); everything else is plain JSONB. */
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
 * 409 for every mutation (docs/design-decisions.md, 6); a missing row (an account confirmed before applications
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

/**
 * GET /api/profile as a ready JSON string, assembled by the database in one round trip: the
 * answers as the database's own jsonb text, the converted documents, the login times and the web
 * status. Only the sealed answers are decrypted here (they are part of the response); everything
 * else goes from the database to the socket without being parsed. null when there is no row yet.
 */
export async function readProfileJson(db: Db, userId: string, key: Buffer): Promise<string | null> {
  const result = await db.execute<{ answer: string; sensitive: string | null; rest: string }>(sql`
    SELECT a.answer::text AS answer,
      CASE WHEN a.sensitive = '{}'::jsonb THEN NULL ELSE a.sensitive::text END AS sensitive,
      json_build_object(
        'document_answer', COALESCE((
          SELECT json_object_agg(d.answer_key,
            json_build_object('file_name', d.file_name, 'file_size', d.file_size))
          FROM document_answers d WHERE d.user_id = a.user_id), '{}'::json),
        'username', u.email,
        'last_page', a.last_page,
        'successful_login', COALESCE((
          SELECT json_agg(to_char(l.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            ORDER BY l.at)
          FROM successful_logins l WHERE l.user_id = a.user_id), '[]'::json),
        'web_status', COALESCE((
          SELECT json_agg(json_build_object('web_status', s.status) ORDER BY s.n)
          FROM unnest(a.web_status) WITH ORDINALITY AS s(status, n)), '[]'::json)
      )::text AS rest
    FROM applications a JOIN users u ON u.id = a.user_id
    WHERE a.user_id = ${userId}`);
  const row = result.rows[0];
  if (!row) return null;
  let answer = row.answer;
  if (row.sensitive) {
    const opened: Record<string, string> = {};
    for (const [k, v] of Object.entries(JSON.parse(row.sensitive) as Record<string, string>)) {
      opened[k] = unseal(key, v);
    }
    // The sealed keys never appear in the plain column, so the two objects join without clashes.
    const extra = JSON.stringify(opened).slice(1, -1);
    answer = answer === '{}' ? `{${extra}}` : `${answer.slice(0, -1)},${extra}}`;
  }
  return `{"answer":${answer},${row.rest.slice(1)}`;
}

/** A JSONB value for a parameter, identical on PGlite and node-postgres. */
export function jsonb(value: unknown) {
  return sql`${JSON.stringify(value)}::jsonb`;
}
