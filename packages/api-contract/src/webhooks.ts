// Signed events to the student system (issue #31, docs/webhooks.md): the event types a webhook
// subscription may name, and the schema of GET /staff/api/webhooks, the delivery log staff read.
import { Type, type Static } from '@sinclair/typebox';

/**
 * What a subscription can be told, in the order docs/webhooks.md describes them. Each delivery
 * carries the application's id only: the receiver reads the rest with its API key.
 */
export const WEBHOOK_EVENT_TYPES = [
  'application.submitted',
  'checklist.item_received',
  'application.updated_after_submit',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** pending: another attempt is scheduled; delivered: a 2xx answer; failed: no more attempts. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const Time = Type.String({ description: 'ISO 8601, UTC' });
const OptionalTime = Type.Union([Time, Type.Null()]);

export const WebhookDelivery = Type.Object(
  {
    /** The event's id (`msg_…`), sent as `webhook-id` on every attempt: the receiver's idempotency key. */
    id: Type.String(),
    type: Type.Union(WEBHOOK_EVENT_TYPES.map((type) => Type.Literal(type))),
    application_id: Type.String(),
    status: Type.Union(WEBHOOK_DELIVERY_STATUSES.map((status) => Type.Literal(status))),
    attempts: Type.Integer({ minimum: 0 }),
    /** The HTTP status of the latest attempt; null when it got no answer (time-out, refused). */
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Time,
    last_attempt_at: OptionalTime,
    /** When the next attempt is due (pending only). */
    next_attempt_at: OptionalTime,
    delivered_at: OptionalTime,
  },
  { additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookSubscription = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    created_at: Time,
    /** Set by `webhooks remove`: nothing more is sent to it. */
    removed_at: OptionalTime,
    /** Every delivery of the log by status. */
    counts: Type.Object(
      {
        pending: Type.Integer({ minimum: 0 }),
        delivered: Type.Integer({ minimum: 0 }),
        failed: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    /** The latest deliveries, newest first (WEBHOOK_RECENT_DELIVERIES at most). */
    recent: Type.Array(WebhookDelivery),
  },
  { additionalProperties: false },
);
export type WebhookSubscription = Static<typeof WebhookSubscription>;

/** How many of each subscription's latest deliveries GET /staff/api/webhooks lists. */
export const WEBHOOK_RECENT_DELIVERIES = 20;

export const StaffWebhooksResponse = Type.Object(
  { subscriptions: Type.Array(WebhookSubscription) },
  { additionalProperties: false },
);
export type StaffWebhooksResponse = Static<typeof StaffWebhooksResponse>;
