// The checklist module's reads and writes. Every check-then-write is one conditional UPDATE (its
// WHERE is the check) or runs under the application row's lock (lockApplication), so 30 requests
// at once change a recommender or a slot exactly once.
import { and, asc, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { checklistAudit, checklistRequests, checklistWaivers, recommenders } from './schema';
import type { RecommenderRow, RequestRow } from './checklist-rules';

export interface ChecklistAuditEntry {
  applicationId: string;
  action:
    | 'request'
    | 'waiver'
    | 'link-sent'
    | 'link-opened'
    | 'letter-submitted'
    | 'reminder-sent'
    | 'material-received'
    | 'recommender-changed'
    | 'recommender-removed';
  actor: string;
  itemId?: string;
  recommenderId?: string;
  ip?: string | null;
  at: Date;
}

export async function recordChecklistEvent(db: Db, entry: ChecklistAuditEntry): Promise<void> {
  await db.insert(checklistAudit).values({
    applicationId: entry.applicationId,
    action: entry.action,
    actor: entry.actor,
    itemId: entry.itemId ?? null,
    recommenderId: entry.recommenderId ?? null,
    ip: entry.ip ?? null,
    createdAt: entry.at,
  });
}

/** The audit of one application, oldest first (tests, and the staff's reading of the trail). */
export async function listChecklistEvents(db: Db, applicationId: string) {
  return db
    .select()
    .from(checklistAudit)
    .where(eq(checklistAudit.applicationId, applicationId))
    .orderBy(asc(checklistAudit.id));
}

/** Live recommenders (not removed), oldest first: slot n of a type is its n-th. */
export async function listRecommenders(db: Db, applicationId: string): Promise<RecommenderRow[]> {
  return db
    .select()
    .from(recommenders)
    .where(and(eq(recommenders.applicationId, applicationId), isNull(recommenders.removedAt)))
    .orderBy(asc(recommenders.createdAt), asc(recommenders.id));
}

export async function listRequests(db: Db, applicationId: string): Promise<RequestRow[]> {
  return db
    .select()
    .from(checklistRequests)
    .where(eq(checklistRequests.applicationId, applicationId))
    .orderBy(asc(checklistRequests.requestedAt), asc(checklistRequests.id));
}

export async function listWaivers(db: Db, applicationId: string): Promise<Map<string, Date>> {
  const rows = await db
    .select({ itemId: checklistWaivers.itemId, waivedAt: checklistWaivers.waivedAt })
    .from(checklistWaivers)
    .where(eq(checklistWaivers.applicationId, applicationId));
  return new Map(rows.map((r) => [r.itemId, r.waivedAt]));
}

export async function findRecommenderByToken(
  db: Db,
  tokenHash: string,
): Promise<RecommenderRow | undefined> {
  const [row] = await db
    .select()
    .from(recommenders)
    .where(and(eq(recommenders.tokenHash, tokenHash), isNull(recommenders.removedAt)))
    .limit(1);
  return row;
}

export async function findRecommender(
  db: Db,
  applicationId: string,
  id: string,
): Promise<RecommenderRow | undefined> {
  const [row] = await db
    .select()
    .from(recommenders)
    .where(
      and(
        eq(recommenders.id, id),
        eq(recommenders.applicationId, applicationId),
        isNull(recommenders.removedAt),
      ),
    )
    .limit(1);
  return row;
}

export async function insertRecommender(
  db: Db,
  row: typeof recommenders.$inferInsert,
): Promise<RecommenderRow> {
  const [inserted] = await db.insert(recommenders).values(row).returning();
  if (!inserted) throw new Error('recommender not inserted');
  return inserted;
}

/** Changes a live recommender who has not submitted; undefined when there is none such. */
export async function updateOpenRecommender(
  db: Db,
  applicationId: string,
  id: string,
  set: Partial<typeof recommenders.$inferInsert>,
): Promise<RecommenderRow | undefined> {
  const [row] = await db
    .update(recommenders)
    .set(set)
    .where(
      and(
        eq(recommenders.id, id),
        eq(recommenders.applicationId, applicationId),
        isNull(recommenders.removedAt),
        isNull(recommenders.submittedAt),
      ),
    )
    .returning();
  return row;
}

/**
 * The applicant's reminder: taken only when none was sent in the last day (the WHERE is the
 * check, so two clicks at once send one e-mail).
 */
export async function takeApplicantReminder(
  db: Db,
  applicationId: string,
  id: string,
  now: Date,
  minGapMs: number,
): Promise<RecommenderRow | undefined> {
  const [row] = await db
    .update(recommenders)
    .set({ applicantRemindedAt: now })
    .where(
      and(
        eq(recommenders.id, id),
        eq(recommenders.applicationId, applicationId),
        isNull(recommenders.removedAt),
        isNull(recommenders.submittedAt),
        or(
          isNull(recommenders.applicantRemindedAt),
          lte(recommenders.applicantRemindedAt, new Date(now.getTime() - minGapMs)),
        ),
      ),
    )
    .returning();
  return row;
}

/** Recommenders owed an automatic reminder at `now` (see checklist-service.ts sendDueReminders). */
export async function listDueReminders(
  db: Db,
  now: Date,
  rule: { max: number; gapMs: number },
): Promise<RecommenderRow[]> {
  const before = new Date(now.getTime() - rule.gapMs);
  return db
    .select()
    .from(recommenders)
    .where(
      and(
        isNull(recommenders.submittedAt),
        isNull(recommenders.removedAt),
        sql`${recommenders.autoReminders} < ${rule.max}`,
        gt(recommenders.linkExpiresAt, now),
        sql`coalesce(${recommenders.lastReminderAt}, ${recommenders.linkSentAt}) <= ${before}`,
      ),
    )
    .limit(500);
}

/** Takes one automatic reminder under the same rule (a second sweep at once takes nothing). */
export async function takeAutoReminder(
  db: Db,
  id: string,
  now: Date,
  rule: { max: number; gapMs: number },
): Promise<RecommenderRow | undefined> {
  const before = new Date(now.getTime() - rule.gapMs);
  const [row] = await db
    .update(recommenders)
    .set({ autoReminders: sql`${recommenders.autoReminders} + 1`, lastReminderAt: now })
    .where(
      and(
        eq(recommenders.id, id),
        isNull(recommenders.submittedAt),
        isNull(recommenders.removedAt),
        sql`${recommenders.autoReminders} < ${rule.max}`,
        sql`coalesce(${recommenders.lastReminderAt}, ${recommenders.linkSentAt}) <= ${before}`,
      ),
    )
    .returning();
  return row;
}

/**
 * Claims a recommender's link for a letter: only a live, unexpired link with no letter and no
 * conversion running. undefined: the caller explains why (findRecommenderByToken).
 */
export async function claimLetter(
  db: Db,
  tokenHash: string,
  now: Date,
  set: Partial<typeof recommenders.$inferInsert>,
): Promise<RecommenderRow | undefined> {
  const [row] = await db
    .update(recommenders)
    .set(set)
    .where(
      and(
        eq(recommenders.tokenHash, tokenHash),
        isNull(recommenders.removedAt),
        isNull(recommenders.submittedAt),
        gt(recommenders.linkExpiresAt, now),
        or(isNull(recommenders.conversionStatus), eq(recommenders.conversionStatus, 'failed')),
      ),
    )
    .returning();
  return row;
}

/** Ends a letter's conversion, if `token` is still the recommender's latest upload. */
export async function finishLetterConversion(
  db: Db,
  id: string,
  token: string,
  set: Partial<typeof recommenders.$inferInsert>,
): Promise<RecommenderRow | undefined> {
  const [row] = await db
    .update(recommenders)
    .set(set)
    .where(
      and(
        eq(recommenders.id, id),
        eq(recommenders.conversionToken, token),
        eq(recommenders.conversionStatus, 'converting'),
        isNull(recommenders.removedAt),
      ),
    )
    .returning();
  return row;
}

export async function findRecommenderById(db: Db, id: string): Promise<RecommenderRow | undefined> {
  const [row] = await db.select().from(recommenders).where(eq(recommenders.id, id)).limit(1);
  return row;
}

export async function insertRequest(
  db: Db,
  row: typeof checklistRequests.$inferInsert,
): Promise<RequestRow> {
  const [inserted] = await db.insert(checklistRequests).values(row).returning();
  if (!inserted) throw new Error('request not inserted');
  return inserted;
}

export async function findRequestById(db: Db, id: string): Promise<RequestRow | undefined> {
  const [row] = await db
    .select()
    .from(checklistRequests)
    .where(eq(checklistRequests.id, id))
    .limit(1);
  return row;
}

/** Claims a requested item's slot for an upload (not received, nothing converting). */
export async function claimRequestSlot(
  db: Db,
  applicationId: string,
  id: string,
  set: Partial<typeof checklistRequests.$inferInsert>,
): Promise<RequestRow | undefined> {
  const [row] = await db
    .update(checklistRequests)
    .set(set)
    .where(
      and(
        eq(checklistRequests.id, id),
        eq(checklistRequests.applicationId, applicationId),
        isNull(checklistRequests.receivedAt),
        or(
          isNull(checklistRequests.conversionStatus),
          eq(checklistRequests.conversionStatus, 'failed'),
        ),
        sql`NOT EXISTS (SELECT 1 FROM ${checklistWaivers} w
          WHERE w.application_id = ${checklistRequests.applicationId}
            AND w.item_id = 'request-' || ${checklistRequests.id}::text)`,
      ),
    )
    .returning();
  return row;
}

export async function finishRequestConversion(
  db: Db,
  id: string,
  token: string,
  set: Partial<typeof checklistRequests.$inferInsert>,
): Promise<RequestRow | undefined> {
  const [row] = await db
    .update(checklistRequests)
    .set(set)
    .where(
      and(
        eq(checklistRequests.id, id),
        eq(checklistRequests.conversionToken, token),
        eq(checklistRequests.conversionStatus, 'converting'),
      ),
    )
    .returning();
  return row;
}

/** true when this call waived the item (a second waiver of the same item changes nothing). */
export async function insertWaiver(
  db: Db,
  row: typeof checklistWaivers.$inferInsert,
): Promise<boolean> {
  const inserted = await db
    .insert(checklistWaivers)
    .values(row)
    .onConflictDoNothing()
    .returning({ itemId: checklistWaivers.itemId });
  return inserted.length > 0;
}

/** Fails every conversion of a letter or requested file started before `before`. */
export async function failStuckConversions(db: Db, before: Date, message: string): Promise<number> {
  const set = { conversionStatus: 'failed', conversionMessage: message } as const;
  const letters = await db
    .update(recommenders)
    .set(set)
    .where(
      and(
        eq(recommenders.conversionStatus, 'converting'),
        lt(recommenders.conversionStartedAt, before),
      ),
    )
    .returning({ id: recommenders.id });
  const materials = await db
    .update(checklistRequests)
    .set(set)
    .where(
      and(
        eq(checklistRequests.conversionStatus, 'converting'),
        lt(checklistRequests.conversionStartedAt, before),
      ),
    )
    .returning({ id: checklistRequests.id });
  return letters.length + materials.length;
}

const APPLICATION_SEGMENT =
  /^[^/]+\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//;

/**
 * Which of `keys` a letter or a requested file (removed recommenders' included) still refers to.
 * A key names its application (checklist/<application id>/…), so each is looked up among that
 * application's rows by their index; a key without one is nobody's.
 */
export async function listReferencedChecklistKeys(db: Db, keys: string[]): Promise<Set<string>> {
  const pairs = keys.flatMap((key) => {
    const applicationId = APPLICATION_SEGMENT.exec(key)?.[1];
    return applicationId ? [{ key, application_id: applicationId }] : [];
  });
  if (pairs.length === 0) return new Set();
  const { rows } = await db.execute<{ key: string }>(sql`
    SELECT k.key FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb)
      AS k(key text, application_id uuid)
    WHERE EXISTS (SELECT 1 FROM ${recommenders} r WHERE r.application_id = k.application_id
                    AND (r.letter_source_key = k.key OR r.letter_pdf_key = k.key))
       OR EXISTS (SELECT 1 FROM ${checklistRequests} q WHERE q.application_id = k.application_id
                    AND (q.source_key = k.key OR q.pdf_key = k.key))`);
  return new Set(rows.map((r) => r.key));
}
