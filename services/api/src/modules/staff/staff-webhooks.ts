// The staff area's webhook page (issue #31): exporters read the subscriptions (never a secret)
// and their delivery log. Subscriptions are added and removed with the CLI only.
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { readStaffWebhooks } from '../webhooks';

export function registerStaffWebhooks(app: FastifyInstance, db: Db): void {
  registerEndpoint(app, ENDPOINTS.listStaffWebhooks, {
    handler: async () => readStaffWebhooks(db),
  });
}
