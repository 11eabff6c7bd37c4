import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column read and written as a Date: every table's times are these. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
