// GET /staff/api/rounds: every admission round with how many applications it holds and how many
// are submitted. The rounds are the rounds module's; the counts read applications.round_code.
import { sql } from 'drizzle-orm';
import type { StaffRoundsResponse } from '@admissions/api-contract';
import type { Db } from '../../platform/db/connect';
import { applications } from '../application';
import { listRounds, summarizeRound } from '../rounds';

export async function listStaffRounds(
  db: Db,
  timeZone: string,
  now: Date,
): Promise<StaffRoundsResponse> {
  const [all, counted] = await Promise.all([
    listRounds(db),
    // One pass over applications; a round no application names yet has no row here.
    db.execute<{ round: string; applications: string | number; submitted: string | number }>(sql`
      SELECT a.round_code AS round, count(*) AS applications,
        count(*) FILTER (WHERE a.staff_status = 'submitted') AS submitted
      FROM ${applications} a GROUP BY a.round_code`),
  ]);
  const counts = new Map(counted.rows.map((row) => [row.round, row]));
  return {
    time_zone: timeZone,
    rounds: all.map((round) => {
      const count = counts.get(round.code);
      return {
        ...summarizeRound(round, now),
        applications: Number(count?.applications ?? 0),
        submitted: Number(count?.submitted ?? 0),
      };
    }),
  };
}
