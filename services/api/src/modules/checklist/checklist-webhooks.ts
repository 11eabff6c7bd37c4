// The checklist's webhook events (docs/webhooks.md), recorded in the transaction of the change
// they tell of; the caller queues what this returns once that transaction has committed.
import type { Db } from '../../platform/db/connect';
import { findApplication } from '../application';
import { recordApplicationEvent, type WebhookDeliveryRef } from '../webhooks';

/**
 * `received`: a letter or a requested file arrived (checklist.item_received, and
 * application.updated_after_submit once the application is submitted: a new document);
 * `waived`: the office waived an item (checklist.item_received: it is no longer awaited);
 * `requested`: the office asked for a new item (application.updated_after_submit, if submitted).
 */
export async function recordChecklistWebhooks(
  tx: Db,
  applicationId: string,
  at: Date,
  change: 'received' | 'waived' | 'requested',
): Promise<WebhookDeliveryRef[]> {
  const deliveries: WebhookDeliveryRef[] = [];
  if (change !== 'requested') {
    deliveries.push(
      ...(await recordApplicationEvent(tx, { type: 'checklist.item_received', applicationId, at })),
    );
  }
  if (change !== 'waived' && (await findApplication(tx, applicationId))?.submittedAt) {
    deliveries.push(
      ...(await recordApplicationEvent(tx, {
        type: 'application.updated_after_submit',
        applicationId,
        at,
      })),
    );
  }
  return deliveries;
}
