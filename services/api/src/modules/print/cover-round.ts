// The staff PDF's cover names the application's admission round: its name and the entry term's
// label ("Early Action, Fall 2027"), read from applications.round_code joined with the rounds.
import { sql } from 'drizzle-orm';
import type { PartnerConfig } from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { applications } from '../application';
import { rounds } from '../rounds';

/** The cover's round line for one application, or null (no such application or round). */
export async function readCoverRound(
  db: Db,
  partner: Pick<PartnerConfig, 'entryTerms'>,
  applicationId: string,
): Promise<string | null> {
  const { rows } = await db.execute<{ name: string; entry_term: string }>(sql`
    SELECT r.name, r.entry_term FROM ${applications} a JOIN ${rounds} r ON r.code = a.round_code
    WHERE a.id = ${applicationId}`);
  const row = rows[0];
  if (!row) return null;
  // The default round of the migration has no entry term; a term no longer offered shows its code.
  const term = partner.entryTerms.find((t) => t.value === row.entry_term)?.label ?? row.entry_term;
  return term === '' ? row.name : `${row.name}, ${term}`;
}
