import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './connect';
import { SERVICE_ROOT } from '../service-root';

const migrationsFolder = path.join(SERVICE_ROOT, 'drizzle');
// Any constant shared by every process of this app: serialises migrations across replicas.
const MIGRATION_LOCK_ID = 7_201_311;

/** Applies pending migrations; safe to call from several processes starting at once. */
export async function migrateDatabase(database: Database): Promise<void> {
  // Each driver's migrator wants its own drizzle database: one over the same client.
  const client = database.db.$client;
  if (client instanceof PGlite) {
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return;
  }
  await database.withAdvisoryLock(MIGRATION_LOCK_ID, () =>
    migratePg(drizzlePg(client), { migrationsFolder }),
  );
}
