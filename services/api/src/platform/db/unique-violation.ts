// PostgreSQL's unique_violation (SQLSTATE 23505), as node-postgres and PGlite raise it; drizzle
// wraps the driver's error in its own, with the original as `cause`.
export function isUniqueViolation(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
