// The webhooks module's public entry point: other modules and boot/ import only from here. The
// application and checklist modules record their events with recordApplicationEvent inside their
// own transaction and queue the deliveries it returns after the commit; this module imports
// neither of them.
export {
  LOST_DELIVERY_AFTER_MS,
  RETRY_WAIT_UNITS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_LOG_RETENTION_MS,
  WEBHOOK_QUEUE,
  createWebhookQueuer,
  deleteExpiredWebhookDeliveries,
  findRetryDelayMs,
  requeueLostWebhookDeliveries,
  startWebhookWorker,
  type QueueWebhookDeliveries,
} from './webhook-jobs';
export {
  WebhookSubscriptionError,
  addWebhookSubscription,
  listWebhookSubscriptions,
  readEventList,
  readStaffWebhooks,
  removeWebhookSubscription,
  type WebhookSubscriptionSummary,
} from './webhook-subscriptions';
export {
  recordApplicationEvent,
  type ApplicationEvent,
  type WebhookDeliveryRef,
} from './webhook-store';
export { WebhookTargetError, checkWebhookTarget } from './webhook-targets';
export { webhookDeliveries, webhookSubscriptions } from './schema';
