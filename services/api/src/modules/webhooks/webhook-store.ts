// The webhooks module's queries. A delivery is claimed by one conditional UPDATE (status pending
// and the attempt count the job expects), so two jobs for one attempt — a retry pg-boss sent and
// one the lost-job sweep queued — make one request between them.
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { WebhookDeliveryStatus, WebhookEventType } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { webhookDeliveries, webhookSubscriptions } from './schema';

export type WebhookSubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery to queue: which one, and how many attempts it has had. */
export interface WebhookDeliveryRef {
  id: string;
  subscriptionId: string;
  attempts: number;
}

/** An application's event, as the module that made the change tells it. */
export interface ApplicationEvent {
  type: WebhookEventType;
  applicationId: string;
  /** When the change was made (the body's `timestamp`). */
  at: Date;
}

/** What every attempt sends: the event's id, type and time and the application's id, no answer. */
export interface WebhookPayload {
  id: string;
  type: WebhookEventType;
  timestamp: string;
  data: { application_id: string };
}

/** An event id in the Standard Webhooks style: `msg_` and 32 hex digits (no `.`, which the signed text separates with). */
function createEventId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

export async function insertSubscription(
  db: Db,
  values: { url: string; events: string[]; secretSealed: string; createdAt: Date },
): Promise<WebhookSubscriptionRow> {
  const [row] = await db.insert(webhookSubscriptions).values(values).returning();
  return row!;
}

export async function listSubscriptions(db: Db): Promise<WebhookSubscriptionRow[]> {
  return db
    .select()
    .from(webhookSubscriptions)
    .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id));
}

export async function findSubscription(
  db: Db,
  id: string,
): Promise<WebhookSubscriptionRow | undefined> {
  const [row] = await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
  return row;
}

/**
 * Stops a subscription: nothing more is recorded for it, and its pending deliveries fail with
 * `reason` (their log stays). Undefined when no live subscription has that id.
 */
export async function disableSubscription(
  db: Db,
  id: string,
  now: Date,
  reason: string,
): Promise<{ subscription: WebhookSubscriptionRow; cancelled: number } | undefined> {
  return db.transaction(async (tx) => {
    const [subscription] = await tx
      .update(webhookSubscriptions)
      .set({ disabledAt: now })
      .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.disabledAt)))
      .returning();
    if (!subscription) return undefined;
    const cancelled = await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: reason, nextAttemptAt: null })
      .where(and(eq(webhookDeliveries.subscriptionId, id), eq(webhookDeliveries.status, 'pending')))
      .returning({ id: webhookDeliveries.id });
    return { subscription, cancelled: cancelled.length };
  });
}

/**
 * One delivery per live subscription that wants `event.type`, written with the caller's `tx`: the
 * event exists if and only if the change it tells of committed. Returns them, to queue once the
 * caller's transaction has committed (a job queued inside it could run before the commit).
 */
export async function recordApplicationEvent(
  tx: Db,
  event: ApplicationEvent,
): Promise<WebhookDeliveryRef[]> {
  const subscribers = await tx
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(
      and(
        isNull(webhookSubscriptions.disabledAt),
        sql`${event.type} = ANY(${webhookSubscriptions.events})`,
      ),
    );
  if (subscribers.length === 0) return [];
  const id = createEventId();
  const payload: WebhookPayload = {
    id,
    type: event.type,
    timestamp: event.at.toISOString(),
    data: { application_id: event.applicationId },
  };
  return tx
    .insert(webhookDeliveries)
    .values(
      subscribers.map((subscriber) => ({
        id,
        subscriptionId: subscriber.id,
        eventType: event.type,
        applicationId: event.applicationId,
        payload,
        nextAttemptAt: event.at,
        createdAt: event.at,
      })),
    )
    .returning({
      id: webhookDeliveries.id,
      subscriptionId: webhookDeliveries.subscriptionId,
      attempts: webhookDeliveries.attempts,
    });
}

/**
 * Takes attempt number `attempt + 1` of a pending delivery: undefined when another job took it
 * (or it is no longer pending). While it runs, `leaseUntil` is when the sweep gives it up for lost.
 */
export async function claimDelivery(
  db: Db,
  ref: WebhookDeliveryRef,
  now: Date,
  leaseUntil: Date,
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastAttemptAt: now,
      nextAttemptAt: leaseUntil,
    })
    .where(
      and(
        eq(webhookDeliveries.id, ref.id),
        eq(webhookDeliveries.subscriptionId, ref.subscriptionId),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, ref.attempts),
      ),
    )
    .returning();
  return row;
}

export interface AttemptResult {
  status: WebhookDeliveryStatus;
  statusCode: number | null;
  error: string | null;
  /** Pending: when the next attempt is due. */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** What the claimed attempt got; only the claim that counted `attempts` may write it. */
export async function recordAttempt(
  db: Db,
  claimed: Pick<WebhookDeliveryRow, 'id' | 'subscriptionId' | 'attempts'>,
  result: AttemptResult,
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: result.status,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      nextAttemptAt: result.nextAttemptAt,
      deliveredAt: result.deliveredAt,
    })
    .where(
      and(
        eq(webhookDeliveries.id, claimed.id),
        eq(webhookDeliveries.subscriptionId, claimed.subscriptionId),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, claimed.attempts),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** Pending deliveries whose next attempt (or running attempt's lease) ended before `before`. */
export async function listLostDeliveries(
  db: Db,
  before: Date,
  limit: number,
): Promise<WebhookDeliveryRef[]> {
  return db
    .select({
      id: webhookDeliveries.id,
      subscriptionId: webhookDeliveries.subscriptionId,
      attempts: webhookDeliveries.attempts,
    })
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.nextAttemptAt, before)),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
}

/** Delivered and failed deliveries made before `before`: the log's retention. */
export async function deleteFinishedDeliveries(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(webhookDeliveries)
    .where(
      and(sql`${webhookDeliveries.status} <> 'pending'`, lt(webhookDeliveries.createdAt, before)),
    )
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}

export type DeliveryCounts = Record<WebhookDeliveryStatus, number>;

/** Every subscription's deliveries by status. */
export async function countDeliveries(db: Db): Promise<Map<string, DeliveryCounts>> {
  const rows = await db
    .select({
      subscriptionId: webhookDeliveries.subscriptionId,
      status: webhookDeliveries.status,
      n: count(),
    })
    .from(webhookDeliveries)
    .groupBy(webhookDeliveries.subscriptionId, webhookDeliveries.status);
  const counts = new Map<string, DeliveryCounts>();
  for (const row of rows) {
    let entry = counts.get(row.subscriptionId);
    if (!entry) counts.set(row.subscriptionId, (entry = { pending: 0, delivered: 0, failed: 0 }));
    entry[row.status as WebhookDeliveryStatus] = Number(row.n);
  }
  return counts;
}

/** A subscription's latest deliveries, newest first. */
export async function listRecentDeliveries(
  db: Db,
  subscriptionId: string,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}
