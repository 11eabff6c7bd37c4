import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './connect';
import { SERVICE_ROOT } from '../service-root';

const migrationsFolder = path.join(SERVICE_ROOT, 'drizzle');
// Any constant shared by every process of this app: serialises migrations across replicas.
const MIGRATION_LOCK_ID = 7_201_311;

/** Applies pending migrations; safe to call from several processes starting at once. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.driver === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  await database.withAdvisoryLock(MIGRATION_LOCK_ID, () =>
    migratePg(database.db, { migrationsFolder }),
  );
}
