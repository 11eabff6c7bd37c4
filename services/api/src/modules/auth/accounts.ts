// Reads of the accounts table for other modules (they never write it).
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { users } from './schema';

export interface Account {
  id: string;
  email: string;
}

/** The account with this id, or undefined (never confirmed accounts included). */
export async function findAccountById(db: Db, id: string): Promise<Account | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

/** The account with this (already normalized) e-mail address, or undefined. */
export async function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return row;
}
