// The webhooks module's tables (issue #31): the student system's subscriptions and the delivery
// log. Only this module writes them. A delivery names its application by id without a foreign key:
// the application module records events through this module, so this one may not depend on it
// (and applications are never deleted).
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

/**
 * A receiver and the events it wants. The signing secret (`whsec_…`, Standard Webhooks) is
 * sealed with AES-256-GCM under SECRET_KEY: shown once by `webhooks add`, unsealed only to sign.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** `webhooks remove`: nothing more is recorded or sent for it; its log stays. */
    disabledAt: at('disabled_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [check('webhook_subscriptions_events_check', sql`cardinality(${t.events}) > 0`)],
);

/**
 * One event for one subscription, and what its attempts got. `id` is the event's id (`msg_…`,
 * the `webhook-id` header): the same on every attempt, so the receiver can drop a repeat.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').notNull(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    applicationId: uuid('application_id').notNull(),
    /** The body sent (id, type, timestamp, data.application_id): never an answer. */
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    /** Attempts started; a claim counts one before the request goes out. */
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: at('last_attempt_at'),
    /**
     * Pending: when the next attempt is due, or while one runs, when it is given up for lost (the
     * housekeeping sweep queues a delivery again past it). Null once delivered or failed.
     */
    nextAttemptAt: at('next_attempt_at'),
    createdAt: at('created_at').notNull(),
    deliveredAt: at('delivered_at'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.subscriptionId] }),
    check(
      'webhook_deliveries_status_check',
      sql`${t.status} IN ('pending', 'delivered', 'failed')`,
    ),
    index('webhook_deliveries_subscription_idx').on(t.subscriptionId, t.createdAt),
    // The lost-job sweep's scan.
    index('webhook_deliveries_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
