#!/usr/bin/env bash
# `npm run audit:prod`: npm audit of the packages that ship (no devDependencies); exits non-zero
# on a high or critical advisory (issue #9). Needs the registry's audit endpoint: when it does not
# answer, the script says so and exits 2, so a missing endpoint is never read as "no issues".
set -uo pipefail
cd "$(dirname "$0")/.."
report=$(mktemp)
trap 'rm -f "$report"' EXIT

npm audit --omit=dev --json >"$report" 2>/dev/null
status=$?

node - "$report" "$status" <<'NODE'
const fs = require('node:fs');
const [file, status] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch {
  console.error(`npm audit gave no report (exit ${status}): the registry's audit endpoint did not answer.`);
  process.exit(2);
}
if (report.error) {
  const why = report.message || report.error.summary || report.error.code || 'unknown error';
  console.error(`npm audit could not run, the registry's audit endpoint refused: ${why}`);
  process.exit(2);
}
const counts = report.metadata?.vulnerabilities ?? {};
const line = ['info', 'low', 'moderate', 'high', 'critical'].map((s) => `${s} ${counts[s] ?? 0}`);
console.log(`npm audit --omit=dev (${report.metadata?.dependencies?.prod ?? '?'} production packages): ${line.join(', ')}`);
for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
  const via = v.via.map((x) => (typeof x === 'string' ? x : `${x.title} (${x.url})`)).join('; ');
  console.log(`  ${v.severity.padEnd(8)} ${name} ${v.range}: ${via}`);
}
process.exit((counts.high ?? 0) + (counts.critical ?? 0) > 0 ? 1 : 0);
NODE
