// The staff area's routes, registered by app.ts in one call.
import type { FastifyInstance } from 'fastify';
import { isHttps, type Config } from '../config';
import type { Db } from '../db/connect';
import type { Clock } from '../lib/clock';
import type { Secrets } from '../lib/crypto';
import type { ApplicationPdfService } from '../print/pdf-service';
import { createStaffAccounts } from './staff-accounts';
import { staffRoutes } from './staff-routes';
import { serviceApiRoutes } from './service-api-routes';
import { createStaffOidc } from './staff-oidc';
import { STAFF_ROUTES } from '@admissions/api-contract';

export interface StaffAreaDeps {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: Secrets;
  pdf: Pick<ApplicationPdfService, 'readServicePdf'>;
}

export async function registerStaffArea(app: FastifyInstance, deps: StaffAreaDeps): Promise<void> {
  const { config, db, clock, secrets } = deps;
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
    config,
    db,
    clock,
    encryptionKey: secrets.encryptionKey,
    accounts,
    cookies,
    pdf: deps.pdf,
  });
  await app.register(serviceApiRoutes, {
    config,
    db,
    clock,
    serviceTokenKey: secrets.serviceTokenKey,
  });
}
