// The rounds module's table. Only this module writes it: an application belongs to one round
// (applications.round_code), and a round's deadline is what the server enforces.
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

/** An admission round (docs/rounds.md): its dates are stored in UTC. */
export const rounds = pgTable('rounds', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  entryTerm: text('entry_term').notNull(),
  opensAt: at('opens_at').notNull(),
  deadline: at('deadline').notNull(),
  /** Saves and submits are still taken this many minutes after the deadline. */
  graceMinutes: integer('grace_minutes').notNull().default(0),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
