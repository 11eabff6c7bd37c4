// The staff area's routes, registered by app.ts in one call.
import type { FastifyInstance } from 'fastify';
import { isHttps, type Config } from '../../platform/config';
import type { Logger } from 'pino';
import type { Database } from '../../platform/db/connect';
import type { JobQueue } from '../../platform/queue/job-queue';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createStaffExports } from './staff-exports';
import type { Clock } from '../../platform/lib/clock';
import type { Secrets } from '../../platform/lib/crypto';
import type { ApplicationPdfService } from '../print';
import { createStaffAccounts } from './staff-accounts';
import { staffRoutes } from './staff-routes';
import { serviceApiRoutes } from './service-api-routes';
import { createStaffOidc } from './staff-oidc';
import { STAFF_ROUTES } from '@admissions/api-contract';
import type { PartnerConfig } from '@admissions/form';
import { createStaffListLabels } from './staff-list';
import type { ChecklistService } from '../checklist';

export interface StaffAreaDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  storage: StorageDriver;
  /** The export routes need the job queue; without one they answer 503. */
  queue?: JobQueue;
  secrets: Secrets;
  pdf: Pick<ApplicationPdfService, 'readServicePdf' | 'readServicePrint'>;
  /** The entry terms the list shows by their labels. */
  partner: PartnerConfig;
  checklist: ChecklistService;
}

export async function registerStaffArea(app: FastifyInstance, deps: StaffAreaDeps): Promise<void> {
  const { config, clock, secrets } = deps;
  const db = deps.database.db;
  const labels = createStaffListLabels(deps.partner);
  const exports = deps.queue
    ? createStaffExports({
        dataDir: config.dataDir,
        database: deps.database,
        queue: deps.queue,
        storage: deps.storage,
        clock,
        logger: deps.logger,
        partner: deps.partner,
        encryptionKey: secrets.encryptionKey,
      })
    : null;
  if (exports) {
    await exports.recoverInterrupted();
    exports.startSweeper();
    app.addHook('onClose', () => exports.drain());
  }
  const cookies = { secure: isHttps(config) };
  const accounts = createStaffAccounts({ db, clock, encryptionKey: secrets.encryptionKey });
  const oidc = config.staffOidc
    ? createStaffOidc({
        config: config.staffOidc,
        redirectUri: new URL(STAFF_ROUTES.oidcCallback, config.publicUrl).href,
        db,
        encryptionKey: secrets.encryptionKey,
        now: () => clock.now(),
      })
    : null;
  await app.register(staffRoutes, {
    oidc,
    exports,
    config,
    db,
    clock,
    accounts,
    cookies,
    pdf: deps.pdf,
    labels,
    checklist: deps.checklist,
    timeZone: deps.partner.timeZone,
  });
  await app.register(serviceApiRoutes, {
    config,
    db,
    clock,
    serviceTokenKey: secrets.serviceTokenKey,
    labels,
  });
}
