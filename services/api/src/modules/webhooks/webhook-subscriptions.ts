// Subscriptions: added, listed and removed by the CLI (`npm run cli -- webhooks …`), read with
// their delivery log by the staff area (GET /staff/api/webhooks, exporters). The signing secret
// leaves this module once, in what addWebhookSubscription returns; it is stored sealed.
import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_RECENT_DELIVERIES,
  isWebhookEventType,
  type StaffWebhooksResponse,
  type WebhookDelivery,
  type WebhookEventType,
} from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { seal } from '../../platform/lib/crypto';
import { WEBHOOK_SUBSCRIPTION_REMOVED } from './webhook-jobs';
import {
  countDeliveries,
  disableSubscription,
  insertSubscription,
  listRecentDeliveries,
  listSubscriptions,
  type DeliveryCounts,
  type WebhookDeliveryRow,
  type WebhookSubscriptionRow,
} from './webhook-store';
import { checkWebhookTarget, type WebhookTargetRules } from './webhook-targets';

/** A subscription the operator asked for that cannot be: the message says why. */
export class WebhookSubscriptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSubscriptionError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Standard Webhooks' form: `whsec_` and the base64 of the key (32 random bytes). */
function createWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `a,b` as the CLI takes it: known event types, each once, at least one. */
export function readEventList(raw: string): WebhookEventType[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isWebhookEventType(name));
  if (names.length === 0 || unknown.length > 0) {
    const what =
      unknown.length > 0 ? `Unknown event ${unknown.map((n) => `"${n}"`).join(', ')}. ` : '';
    throw new WebhookSubscriptionError(
      `${what}--events takes a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    );
  }
  return [...new Set(names as WebhookEventType[])];
}

export interface WebhookSubscriptionSummary {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  removedAt: Date | null;
  counts: DeliveryCounts;
}

const NO_DELIVERIES: DeliveryCounts = { pending: 0, delivered: 0, failed: 0 };

function summarize(
  row: WebhookSubscriptionRow,
  counts: DeliveryCounts = NO_DELIVERIES,
): WebhookSubscriptionSummary {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    createdAt: row.createdAt,
    removedAt: row.disabledAt,
    counts,
  };
}

/**
 * A new subscription and its secret, which is shown to the operator this once. The URL is
 * checked against the target rules here and again before every attempt.
 */
export async function addWebhookSubscription(
  db: Db,
  input: { url: string; events: WebhookEventType[] },
  options: { encryptionKey: Buffer; rules: WebhookTargetRules; now: Date },
): Promise<{ subscription: WebhookSubscriptionSummary; secret: string }> {
  const url = checkWebhookTarget(input.url, options.rules);
  const secret = createWebhookSecret();
  const row = await insertSubscription(db, {
    url: url.href,
    events: input.events,
    secretSealed: seal(options.encryptionKey, secret),
    createdAt: options.now,
  });
  return { subscription: summarize(row), secret };
}

/** Every subscription, removed ones too, oldest first, with its deliveries by status. */
export async function listWebhookSubscriptions(db: Db): Promise<WebhookSubscriptionSummary[]> {
  const [rows, counts] = await Promise.all([listSubscriptions(db), countDeliveries(db)]);
  return rows.map((row) => summarize(row, counts.get(row.id)));
}

/**
 * Stops sending to a subscription: its pending deliveries fail, its log stays (the staff area
 * shows it as removed). Returns how many pending deliveries were dropped.
 */
export async function removeWebhookSubscription(
  db: Db,
  id: string,
  now: Date,
): Promise<{ subscription: WebhookSubscriptionSummary; cancelled: number }> {
  const removed = UUID.test(id)
    ? await disableSubscription(db, id, now, WEBHOOK_SUBSCRIPTION_REMOVED)
    : undefined;
  if (!removed) {
    throw new WebhookSubscriptionError(`There is no webhook subscription with the id "${id}".`);
  }
  return { subscription: summarize(removed.subscription), cancelled: removed.cancelled };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function describeDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    type: row.eventType as WebhookEventType,
    application_id: row.applicationId,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: iso(row.lastAttemptAt),
    // While an attempt runs: when it is given up for lost.
    next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    delivered_at: iso(row.deliveredAt),
  };
}

/** GET /staff/api/webhooks: every subscription (no secret) with its latest deliveries. */
export async function readStaffWebhooks(db: Db): Promise<StaffWebhooksResponse> {
  const subscriptions = await listWebhookSubscriptions(db);
  return {
    subscriptions: await Promise.all(
      subscriptions.map(async (subscription) => ({
        id: subscription.id,
        url: subscription.url,
        events: subscription.events,
        created_at: subscription.createdAt.toISOString(),
        removed_at: iso(subscription.removedAt),
        counts: subscription.counts,
        recent: (await listRecentDeliveries(db, subscription.id, WEBHOOK_RECENT_DELIVERIES)).map(
          describeDelivery,
        ),
      })),
    ),
  };
}
