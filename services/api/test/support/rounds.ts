// Admission rounds for tests, written straight into the table (the rounds module's store is the
// product's writer; a test only needs the rows).
import type { TestRuntime } from './test-runtime';

export interface TestRound {
  code: string;
  name: string;
  entryTerm?: string;
  opensAt: string;
  deadline: string;
  graceMinutes?: number;
}

export async function insertRound(t: TestRuntime, round: TestRound): Promise<void> {
  await t.runtime.database.executeSql(
    `INSERT INTO rounds (code, name, entry_term, opens_at, deadline, grace_minutes)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      round.code,
      round.name,
      round.entryTerm ?? '',
      round.opensAt,
      round.deadline,
      round.graceMinutes ?? 0,
    ],
  );
}
