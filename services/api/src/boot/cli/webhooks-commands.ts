// `npm run cli -- webhooks add|list|remove`: the student system's webhook subscriptions
// (docs/webhooks.md). `add` prints the signing secret once: only its seal is stored. The staff
// area shows the subscriptions and their delivery log to exporters; only this command changes them.
import { parseArgs } from 'node:util';
import { WEBHOOK_EVENT_TYPES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/connect';
import { systemClock } from '../../platform/lib/clock';
import { loadSecrets } from '../../platform/lib/crypto';
import {
  WebhookSubscriptionError,
  WebhookTargetError,
  addWebhookSubscription,
  checkWebhookTarget,
  listWebhookSubscriptions,
  readEventList,
  removeWebhookSubscription,
  type WebhookSubscriptionSummary,
} from '../../modules/webhooks';
import { CliUsageError } from './staff-commands';

export const WEBHOOKS_USAGE = `  webhooks add --url https://… --events E1,E2
                                  subscribe a receiver to events, a comma-separated list of
                                  ${WEBHOOK_EVENT_TYPES.slice(0, 2).join(', ')},
                                  ${WEBHOOK_EVENT_TYPES.slice(2).join(', ')}; prints its id and its
                                  signing secret, shown this once
  webhooks list                   the subscriptions, with their deliveries by status
  webhooks remove --id ID         stop sending to a subscription (its delivery log stays)`;

function describeSubscription(subscription: WebhookSubscriptionSummary): string {
  const { pending, delivered, failed } = subscription.counts;
  return [
    subscription.id,
    subscription.url,
    subscription.events.join(','),
    subscription.removedAt ? `removed ${subscription.removedAt.toISOString()}` : 'live',
    `pending ${pending}, delivered ${delivered}, failed ${failed}`,
  ].join('\t');
}

/** The module's refusals as the operator typed the command. */
function explainRefusal(error: unknown): never {
  if (error instanceof WebhookTargetError || error instanceof WebhookSubscriptionError) {
    throw new CliUsageError(error.message);
  }
  throw error;
}

export async function runWebhooksCommand(
  config: Config,
  args: string[],
  openDatabase: () => Promise<Database>,
): Promise<number> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      url: { type: 'string' },
      events: { type: 'string' },
      id: { type: 'string' },
    },
  });
  const withDatabase = async <T>(run: (database: Database) => Promise<T>): Promise<T> => {
    const database = await openDatabase();
    try {
      return await run(database);
    } catch (error) {
      explainRefusal(error);
    } finally {
      await database.close();
    }
  };

  switch (action) {
    case 'add': {
      if (!values.url || !values.events) {
        throw new CliUsageError(`--url and --events are required.\n\nUsage:\n${WEBHOOKS_USAGE}`);
      }
      // Checked before the database is opened: a typo is explained without touching it.
      let events;
      try {
        checkWebhookTarget(values.url, config.webhooks);
        events = readEventList(values.events);
      } catch (error) {
        explainRefusal(error);
      }
      const secrets = await loadSecrets(config.secretKey, config.dataDir);
      const { subscription, secret } = await withDatabase((database) =>
        addWebhookSubscription(
          database.db,
          { url: values.url!, events },
          {
            encryptionKey: secrets.encryptionKey,
            rules: config.webhooks,
            now: systemClock.now(),
          },
        ),
      );
      console.log(
        [
          `Webhook subscription ${subscription.id} added: ${subscription.url}`,
          `Events: ${subscription.events.join(', ')}`,
          'Signing secret (shown once: give it to the receiver, which verifies every delivery with it):',
          secret,
        ].join('\n'),
      );
      return 0;
    }
    case 'list': {
      const subscriptions = await withDatabase((database) => listWebhookSubscriptions(database.db));
      for (const subscription of subscriptions) console.log(describeSubscription(subscription));
      if (subscriptions.length === 0) console.log('No webhook subscriptions.');
      return 0;
    }
    case 'remove': {
      const id = values.id?.trim();
      if (!id) throw new CliUsageError(`--id is required.\n\nUsage:\n${WEBHOOKS_USAGE}`);
      const { subscription, cancelled } = await withDatabase((database) =>
        removeWebhookSubscription(database.db, id, systemClock.now()),
      );
      console.log(
        `Webhook subscription ${subscription.id} removed; ${cancelled} pending ${
          cancelled === 1 ? 'delivery' : 'deliveries'
        } will not be sent.`,
      );
      return 0;
    }
    default:
      throw new CliUsageError(`Usage:\n${WEBHOOKS_USAGE}`);
  }
}
