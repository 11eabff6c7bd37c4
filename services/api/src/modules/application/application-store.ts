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
import {
  createRoundClosedError,
  isRoundClosed,
  isRoundOpenForWriteSql,
  rounds,
  startingRoundSql,
} from '../rounds';
import { applications } from './schema';
import { isUniqueViolation } from '../../platform/db/unique-violation';
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
export function readAnswers(
  row: Pick<ApplicationRow, 'answer' | 'sensitive'>,
  key: Buffer,
): Record<string, string> {
  const answers = { ...row.answer };
  for (const [k, v] of Object.entries(row.sensitive)) answers[k] = unseal(key, v);
  return answers;
}

/** One sealed answer decrypted ('' when it has none): readAnswers without copying every answer. */
export function readSealedAnswer(
  row: Pick<ApplicationRow, 'sensitive'>,
  answerKey: string,
  key: Buffer,
): string {
  const sealed = row.sensitive[answerKey];
  return sealed ? unseal(key, sealed) : '';
}

/** The application `applicationId`. */
export async function findApplication(
  db: Db,
  applicationId: string,
): Promise<ApplicationRow | undefined> {
  const rows = await db
    .select()
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  return rows[0];
}

/** The id of the applicant's current application (their latest chosen), if they have one. */
export async function findCurrentApplicationId(
  db: Db,
  userId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(eq(applications.userId, userId))
    .orderBy(sql`${applications.chosenAt} DESC NULLS LAST`)
    .limit(1);
  return row?.id;
}

/**
 * Starts the applicant's first application unless they have one: in the open round that closes
 * first, else the round that closed last (rounds' startingRoundSql). The first application takes
 * the applicant's id as its own, as migration 0014 gave every application from before rounds, so
 * an applicant's first application is named alike whenever they signed up. Concurrent first
 * requests insert the same row: one stays, the others do nothing.
 */
export async function openApplication(db: Db, userId: string, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`
    INSERT INTO ${applications} (id, user_id, round_code, chosen_at)
    SELECT ${userId}::uuid, ${userId}::uuid, ${startingRoundSql(at)}, ${at}
    WHERE NOT EXISTS (SELECT 1 FROM ${applications} o WHERE o.user_id = ${userId}::uuid)
    ON CONFLICT DO NOTHING`);
}

/** The application the applicant's requests act on: theirs with the latest chosen_at. */
export interface CurrentApplicationRow {
  id: string;
  round_code: string;
  submitted: boolean;
}

// One indexed read (applications_user_chosen_idx) per applicant request, prepared once per
// connection.
const CURRENT_APPLICATION = prepareStatement(
  'application_current',
  `SELECT id, round_code, submitted_at IS NOT NULL AS submitted FROM applications
   WHERE user_id = $1 ORDER BY chosen_at DESC NULLS LAST LIMIT 1`,
);

/** The applicant's current application, starting their first one when they have none. */
export async function readCurrentApplication(
  db: RootDb,
  userId: string,
  now: Date,
): Promise<CurrentApplicationRow> {
  const read = async () =>
    (await runPrepared<CurrentApplicationRow>(db, CURRENT_APPLICATION, [userId]))[0];
  const found = await read();
  if (found) return found;
  await openApplication(db, userId, now);
  const opened = await read();
  if (!opened) throw new Error('application row missing after insert');
  return opened;
}

/**
 * An applicant's write: when its request arrived (the deadline is judged by it) and the time
 * zone a refusal names the deadline in.
 */
export interface ApplicantWrite {
  receivedAt: Date;
  timeZone: string;
}

/**
 * Why a write of the application found nothing to change: 409 ALREADY_SUBMITTED, 409 ROUND_CLOSED
 * (its round closed before the request arrived) or 404-like NO_APPLICATION; undefined when none
 * of these holds (the write's own extra condition did not).
 */
export async function explainRefusedWrite(
  db: Db,
  applicationId: string,
  write: ApplicantWrite,
): Promise<AppError | undefined> {
  const [row] = await db
    .select({
      submittedAt: applications.submittedAt,
      code: rounds.code,
      name: rounds.name,
      opensAt: rounds.opensAt,
      deadline: rounds.deadline,
      graceMinutes: rounds.graceMinutes,
    })
    .from(applications)
    .innerJoin(rounds, eq(rounds.code, applications.roundCode))
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!row) return new AppError('NO_APPLICATION', MESSAGES.missingInformation);
  if (row.submittedAt) return new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted);
  if (isRoundClosed(row, write.receivedAt)) return createRoundClosedError(row, write.timeZone);
  return undefined;
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

/**
 * The UPDATE of an application while it is not submitted (and `also`); given the receipt time of
 * an applicant's request, also only while its round had not closed then — read in the same
 * statement, so a deadline changed a moment before is the one applied.
 */
function unsubmittedUpdate(
  db: Db,
  applicationId: string | Placeholder | SQL,
  set: Record<string, unknown>,
  also?: SQL,
  receivedAt?: string | Placeholder,
) {
  return db
    .update(applications)
    .set(set)
    .where(
      and(
        sql`${applications.id} = ${applicationId}`,
        sql`${applications.submittedAt} IS NULL`,
        receivedAt === undefined
          ? undefined
          : isRoundOpenForWriteSql(sql`${applications.roundCode}`, sql`${receivedAt}::timestamptz`),
        also,
      ),
    )
    .returning({ id: applications.id });
}

/**
 * One UPDATE of the application while it is not submitted (and, given `also`, while that holds
 * too; given an applicant's `write`, while its round was open when the request arrived); false
 * when it is not (or has no row).
 */
export async function writeUnsubmitted(
  db: Db,
  applicationId: string,
  set: Record<string, unknown>,
  also?: SQL,
  write?: ApplicantWrite,
): Promise<boolean> {
  return (
    (await unsubmittedUpdate(db, applicationId, set, also, write?.receivedAt.toISOString()))
      .length > 0
  );
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
  // The applicant's current application, resolved in the same statement (the resolver's query,
  // on applications_user_chosen_idx): the autosave is one round trip, not two.
  const current = sql`(SELECT c.id FROM ${applications} c WHERE c.user_id = ${sql.placeholder(
    'userId',
  )} ORDER BY c.chosen_at DESC NULLS LAST LIMIT 1)`;
  const query = unsubmittedUpdate(
    renderer,
    current,
    contentChange(set, sql.placeholder('now')),
    undefined,
    sql.placeholder('receivedAt'),
  ).toSQL();
  return { statement: prepareStatement(name, query.sql), params: query.params };
}
const SAVE_ANSWERS = prepareAnswerMerge('application_save_answers', false);
const SAVE_ANSWERS_SEALED = prepareAnswerMerge('application_save_answers_sealed', true);

/**
 * Merges answers (already split by splitSensitive) into the applicant's current application while
 * it is not submitted and its round was open when the request arrived: one prepared statement
 * that finds the application itself. Nothing written: `resolve` (the request's resolver) reads
 * the current application, starting it when there is none, and the merge runs once more; then 409
 * (ALREADY_SUBMITTED, ROUND_CLOSED) says why.
 */
export async function mergeAnswers(
  db: RootDb,
  userId: string,
  plain: Record<string, string>,
  sealed: Record<string, string>,
  now: Date,
  write: ApplicantWrite,
  resolve: () => Promise<string>,
): Promise<void> {
  const save = Object.keys(sealed).length > 0 ? SAVE_ANSWERS_SEALED : SAVE_ANSWERS;
  const values = fillPlaceholders(save.params, {
    plain: JSON.stringify(plain),
    sealed: JSON.stringify(sealed),
    now,
    userId,
    receivedAt: write.receivedAt.toISOString(),
  }) as PreparedValue[];
  const merge = async () => (await runPrepared(db, save.statement, values)).length > 0;
  if (await merge()) return;
  // Nothing written: a closed round or a submitted application (every save after a deadline
  // lands here, so say so before trying again), or no application yet (the resolver starts one).
  const applicationId = await resolve();
  const refusal = await explainRefusedWrite(db, applicationId, write);
  if (refusal) throw refusal;
  if (await merge()) return;
  throw (
    (await explainRefusedWrite(db, applicationId, write)) ??
    new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted)
  );
}

/**
 * Runs one UPDATE of an application that is not yet submitted and whose round was open when the
 * applicant's request arrived. A submitted application answers 409 for every mutation
 * (docs/design-decisions.md, 6), and so does one whose round has closed.
 */
export async function updateUnsubmitted(
  db: Db,
  applicationId: string,
  set: Record<string, unknown>,
  write: ApplicantWrite,
): Promise<void> {
  if (await writeUnsubmitted(db, applicationId, set, undefined, write)) return;
  throw (
    (await explainRefusedWrite(db, applicationId, write)) ??
    new AppError('ALREADY_SUBMITTED', MESSAGES.alreadySubmitted)
  );
}

/**
 * Locks the application row for the rest of the transaction `tx` and says whether it is
 * submitted. Submit takes the same lock, so whatever holds it (a document's start, claim,
 * completion or removal) sees the application either open or submitted for its whole duration.
 * Given an applicant's `write`, an unsubmitted application whose round closed before the request
 * arrived answers 409 ROUND_CLOSED: the round is read under the lock, with the write it guards.
 */
export async function lockApplication(
  tx: Db,
  applicationId: string,
  write?: ApplicantWrite,
): Promise<{ submitted: boolean }> {
  const [row] = await tx
    .select({
      submittedAt: applications.submittedAt,
      code: rounds.code,
      name: rounds.name,
      opensAt: rounds.opensAt,
      deadline: rounds.deadline,
      graceMinutes: rounds.graceMinutes,
    })
    .from(applications)
    .innerJoin(rounds, eq(rounds.code, applications.roundCode))
    .where(eq(applications.id, applicationId))
    .for('update', { of: applications });
  const submitted = Boolean(row?.submittedAt);
  if (row && !submitted && write && isRoundClosed(row, write.receivedAt)) {
    throw createRoundClosedError(row, write.timeZone);
  }
  return { submitted };
}

/**
 * Sets (or clears, with '') the answer of a file question when its document arrives or goes: a
 * change of content under the version rule; a submitted application is left alone.
 */
export async function setFileAnswer(
  tx: Db,
  applicationId: string,
  answerKey: string,
  value: 'ANSWERED' | '',
  now: Date,
): Promise<void> {
  await writeUnsubmitted(
    tx,
    applicationId,
    contentChange({ answer: sql`${applications.answer} || ${jsonb({ [answerKey]: value })}` }, now),
  );
}

/**
 * A checklist item changed (a letter or requested file received, a request, a waiver): the
 * staff PDF and the export show the checklist, so the version moves on, submitted or not. The
 * answers, `updated_at` and `submitted_at` are left exactly as they were. false: no such
 * application.
 */
export async function bumpChecklistVersion(db: Db, applicationId: string): Promise<boolean> {
  const rows = await db
    .update(applications)
    .set({ version: sql`${applications.version} + 1` })
    .where(eq(applications.id, applicationId))
    .returning({ id: applications.id });
  return rows.length > 0;
}

/**
 * Stores the student system's ID of an application (its return feed). The version moves on, so
 * the staff PDF's cover and the next incremental export show it. 'taken': another application has
 * it (the unique constraint decides, so two feeds at once cannot both take it).
 */
export async function setExternalId(
  db: Db,
  applicationId: string,
  externalId: string,
): Promise<'set' | 'unchanged' | 'not-found' | 'taken'> {
  try {
    const rows = await db
      .update(applications)
      .set({ externalId, version: sql`${applications.version} + 1` })
      .where(
        and(
          eq(applications.id, applicationId),
          sql`${applications.externalId} IS DISTINCT FROM ${externalId}`,
        ),
      )
      .returning({ id: applications.id });
    if (rows.length > 0) return 'set';
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
  const [row] = await db
    .select({ externalId: applications.externalId })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row ? 'unchanged' : 'not-found';
}

/** The application whose student system ID this is, if any. */
export async function findApplicationByExternalId(
  db: Db,
  externalId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(sql`upper(${applications.externalId}) = upper(${externalId})`)
    .limit(1);
  return row?.id;
}

/** The application's current version; 409 NO_APPLICATION when it does not exist. */
export async function readApplicationVersion(db: Db, applicationId: string): Promise<number> {
  const [row] = await db
    .select({ version: applications.version })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!row) throw new AppError('NO_APPLICATION', MESSAGES.missingInformation);
  return row.version;
}

/**
 * Some answers from the plain column only (the applicant's name, for a file name): nothing is
 * decrypted, and a sealed key is never there. Empty when there is no application.
 */
export async function readPlainAnswers(
  db: Db,
  applicationId: string,
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
    .where(eq(applications.id, applicationId))
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
  applicationId: string,
  key: Buffer,
  documentsSql: (applicationId: SQL) => SQL,
): Promise<string | null> {
  const [row] = await runPrepared<{ answer: string; sensitive: string | null; rest: string }>(
    db,
    profileStatementFor(documentsSql),
    [applicationId],
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

const profileStatements = new WeakMap<(applicationId: SQL) => SQL, PreparedStatement>();
let profileStatementCount = 0;

/**
 * The profile query as fixed text, rendered once (per documents expression) and then prepared
 * once per connection: its only parameter is the application ($1).
 */
function profileStatementFor(documentsSql: (applicationId: SQL) => SQL): PreparedStatement {
  const known = profileStatements.get(documentsSql);
  if (known) return known;
  const query = new PgDialect().sqlToQuery(sql`
    SELECT a.answer::text AS answer,
      CASE WHEN a.sensitive = '{}'::jsonb THEN NULL ELSE a.sensitive::text END AS sensitive,
      json_build_object(
        'document_answer', ${documentsSql(sql`a.id`)},
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
    WHERE a.id = ${sql.placeholder('applicationId')}`);
  if (query.params.length !== 1) throw new Error('the profile query takes the application only');
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
