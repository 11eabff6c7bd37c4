// The mail module's table: per-address allowances. Only this module writes it.
import { doublePrecision, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from '../../platform/db/columns';

/**
 * Allowances per e-mail address (token buckets, issue #15), known address or not: the account
 * e-mails it may still get (`mail:` keys), so anonymous requests cannot flood a mailbox, and the
 * confirmation codes that may still be tried for it (`confirm:` keys). Keyed by an HMAC of the
 * address, so no address is stored.
 */
export const addressThrottle = pgTable('address_throttle', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedAt: at('updated_at').notNull(),
});
