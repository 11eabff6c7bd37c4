import {
  and,
  eq,
  fillPlaceholders,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { MESSAGES } from '@admissions/api-contract';
import { IDENTIFIER_ANSWER_KEYS } from '@admissions/form';
import type { Db, RootDb } from '../../platform/db/connect';
import { successfulLogins, users } from '../auth';
import { applications } from './schema';
import { AppError } from '../../platform/lib/app-error';
import { seal, unseal } from '../../platform/lib/crypto';
import {
  prepareStatement,
  runPrepared,
  type PreparedStatement,
  type PreparedValue,
} from '../../platform/db/prepared';

/** Answers encrypted at rest (docs/design-decisions.md, 7); everything else is plain JSONB. */
const ENCRYPTED_ANSWER_KEYS: ReadonlySet<string> = new Set(IDENTIFIER_ANSWER_KEYS);

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

/** Creates the applicant's (empty) application unless it exists. */
export async function openApplication(db: Db, userId: string): Promise<void> {
  await db.insert(applications).values({ userId }).onConflictDoNothing();
}

/**
 * The version rule, written once: a change of content (answers, tabs, add-another counts,
 * documents) bumps `version`, on which the cached PDFs and the exports depend, and stamps
 * `updatedAt`. Only an application that is not submitted changes (writeUnsubmitted). Every
 * write of content goes through both, the autosave's prepared statements included: they are
 * rendered from them (prepareAnswerMerge).
 */
export function contentChange(
  set: Record<string, unknown>,
  now: Date | Placeholder,
): Record<string, unknown> {
  return { ...set, version: sql`${applications.version} + 1`, updatedAt: now };
}

/** The UPDATE of an application: the applicant's row while it is not submitted (and `also`). */
function unsubmittedUpdate(
  db: Db,
  userId: string | Placeholder,
  set: Record<string, unknown>,
  also?: SQL,
) {
  return db
    .update(applications)
    .set(set)
    .where(
      and(sql`${applications.userId} = ${userId}`, sql`${applications.submittedAt} IS NULL`, also),
    )
    .returning({ userId: applications.userId });
}

/**
 * One UPDATE of the application while it is not submitted (and, given `also`, while that holds
 * too); false when it is not (or has no row).
 */
export async function writeUnsubmitted(
  db: Db,
  userId: string,
  set: Record<string, unknown>,
  also?: SQL,
): Promise<boolean> {
  return (await unsubmittedUpdate(db, userId, set, also)).length > 0;
}

// Renders statements without a connection: only toSQL() is ever called on it.
const renderer = drizzle.mock();

/**
 * The autosave, the hottest write, as a fixed text prepared once per connection
 * (platform/db/prepared.ts): unsubmittedUpdate with contentChange, rendered once with named
 * placeholders that mergeAnswers fills. The sealed column is rewritten only when the patch
 * carries a sealed answer.
 */
function prepareAnswerMerge(name: string, withSealed: boolean) {
  const merge = (column: AnyColumn, value: string) =>
    sql`${column} || ${sql.placeholder(value)}::jsonb`;
  const set = withSealed
    ? {
        answer: merge(applications.answer, 'plain'),
        sensitive: merge(applications.sensitive, 'sealed'),
      }
    : { answer: merge(applications.answer, 'plain') };
  const query = unsubmittedUpdate(
    renderer,
    sql.placeholder('userId'),
    contentChange(set, sql.placeholder('now')),
  ).toSQL();
  return { statement: prepareStatement(name, query.sql), params: query.params };
}
const SAVE_ANSWERS = prepareAnswerMerge('application_save_answers', false);
const SAVE_ANSWERS_SEALED = prepareAnswerMerge('application_save_answers_sealed', true);

/**
 * Merges answers (already split by splitSensitive) into an application that is not submitted;
 * 409 when it is, and a missing row is created first, as updateUnsubmitted does.
 */
export async function mergeAnswers(
  db: RootDb,
  userId: string,
  plain: Record<string, string>,
  sealed: Record<string, string>,
  now: Date,
): Promise<void> {
  const save = Object.keys(sealed).length > 0 ? SAVE_ANSWERS_SEALED : SAVE_ANSWERS;
  const values = fillPlaceholders(save.params, {
    plain: JSON.stringify(plain),
    sealed: JSON.stringify(sealed),
    now,
    userId,
  }) as PreparedValue[];
  const write = async () => (await runPrepared(db, save.statement, values)).length > 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await write()) return;
    const existing = await findApplication(db, userId);
    if (existing) throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
    await openApplication(db, userId);
  }
  throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
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
    if (await writeUnsubmitted(db, userId, set)) return;
    const existing = await findApplication(db, userId);
    if (existing) throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
    await openApplication(db, userId);
  }
  throw new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
}

/**
 * Locks the applicant's application row for the rest of the transaction `tx` and says whether
 * it is submitted. Submit takes the same lock, so whatever holds it (a document's start, claim,
 * completion or removal) sees the application either open or submitted for its whole duration.
 */
export async function lockApplication(tx: Db, userId: string): Promise<{ submitted: boolean }> {
  const [row] = await tx
    .select({ submittedAt: applications.submittedAt })
    .from(applications)
    .where(eq(applications.userId, userId))
    .for('update');
  return { submitted: Boolean(row?.submittedAt) };
}

/**
 * Sets (or clears, with '') the answer of a file question when its document arrives or goes: a
 * change of content under the version rule; a submitted application is left alone.
 */
export async function setFileAnswer(
  tx: Db,
  userId: string,
  answerKey: string,
  value: 'ANSWERED' | '',
  now: Date,
): Promise<void> {
  await writeUnsubmitted(
    tx,
    userId,
    contentChange({ answer: sql`${applications.answer} || ${jsonb({ [answerKey]: value })}` }, now),
  );
}

/** The application's current version, creating the empty application if there is none. */
export async function readApplicationVersion(db: Db, userId: string): Promise<number> {
  const read = async () =>
    (
      await db
        .select({ version: applications.version })
        .from(applications)
        .where(eq(applications.userId, userId))
        .limit(1)
    )[0]?.version;
  let version = await read();
  if (version === undefined) {
    await openApplication(db, userId);
    version = await read();
  }
  if (version === undefined) throw new Error('application row missing after insert');
  return version;
}

/**
 * Some answers from the plain column only (the applicant's name, for a file name): nothing is
 * decrypted, and a sealed key is never there. Empty when there is no application.
 */
export async function readPlainAnswers(
  db: Db,
  userId: string,
  keys: readonly string[],
): Promise<Record<string, string>> {
  const wanted = sql`ARRAY[${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )}]::text[]`;
  const [row] = await db
    .select({
      answers: sql<Record<string, string> | null>`(SELECT jsonb_object_agg(e.key, e.value)
        FROM jsonb_each_text(${applications.answer}) e WHERE e.key = ANY(${wanted}))`,
    })
    .from(applications)
    .where(eq(applications.userId, userId))
    .limit(1);
  return row?.answers ?? {};
}

/**
 * GET /api/profile as a ready JSON string, assembled by the database in one round trip: the
 * answers as the database's own jsonb text, the converted documents, the login times and the web
 * status. Only the sealed answers are decrypted here (they are part of the response); everything
 * else goes from the database to the socket without being parsed. null when there is no row yet.
 */
export async function readProfileJson(
  db: RootDb,
  userId: string,
  key: Buffer,
  documentsSql: (userId: SQL) => SQL,
): Promise<string | null> {
  const [row] = await runPrepared<{ answer: string; sensitive: string | null; rest: string }>(
    db,
    profileStatementFor(documentsSql),
    [userId],
  );
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

const profileStatements = new WeakMap<(userId: SQL) => SQL, PreparedStatement>();
let profileStatementCount = 0;

/**
 * The profile query as fixed text, rendered once (per documents expression) and then prepared
 * once per connection: its only parameter is the applicant ($1).
 */
function profileStatementFor(documentsSql: (userId: SQL) => SQL): PreparedStatement {
  const known = profileStatements.get(documentsSql);
  if (known) return known;
  const query = new PgDialect().sqlToQuery(sql`
    SELECT a.answer::text AS answer,
      CASE WHEN a.sensitive = '{}'::jsonb THEN NULL ELSE a.sensitive::text END AS sensitive,
      json_build_object(
        'document_answer', ${documentsSql(sql`a.user_id`)},
        'username', u.email,
        'last_page', a.last_page,
        'successful_login', COALESCE((
          SELECT json_agg(to_char(l.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            ORDER BY l.at)
          FROM ${successfulLogins} l WHERE l.user_id = a.user_id), '[]'::json),
        'web_status', COALESCE((
          SELECT json_agg(json_build_object('web_status', s.status) ORDER BY s.n)
          FROM unnest(a.web_status) WITH ORDINALITY AS s(status, n)), '[]'::json)
      )::text AS rest
    FROM ${applications} a JOIN ${users} u ON u.id = a.user_id
    WHERE a.user_id = ${sql.placeholder('userId')}`);
  if (query.params.length !== 1) throw new Error('the profile query takes the applicant only');
  const statement = prepareStatement(`application_profile_${++profileStatementCount}`, query.sql);
  profileStatements.set(documentsSql, statement);
  return statement;
}

/** True when the database holds no application at all (the CLI says so when a look-up fails). */
export async function hasNoApplications(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(applications)
    .limit(1);
  return row === undefined;
}

/** A JSONB value for a parameter, identical on PGlite and node-postgres. */
export function jsonb(value: unknown) {
  return sql`${JSON.stringify(value)}::jsonb`;
}
