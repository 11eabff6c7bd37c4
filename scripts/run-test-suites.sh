#!/usr/bin/env bash
# The suites of `npm test` once the builds are made: vitest's projects and the browser suite.
#
# The browser suite spends most of its time waiting on a page, a server or Chromium rather than
# computing, and so do many API files (LibreOffice, child processes, job queues): run one beside
# the other instead of one after the other, so the cores one leaves idle do the other's work.
# The browser suite's report is kept apart and printed when it ends, not interleaved.
#
# The test of the service build runs first, alone: it deletes and rewrites services/api/dist,
# which the browser suite's server and the CLI tests run.
set -uo pipefail
cd "$(dirname "$0")/.."

npx vitest run --project api-build || exit 1

# One after the other instead, as before (to compare, or on a machine with one core).
if [ "${TEST_SUITES_IN_SEQUENCE:-}" = 1 ]; then
  npx vitest run --project '!api-build' && npm run test -w tests
  exit
fi

e2e_log="$(mktemp)"
trap 'rm -f "$e2e_log"' EXIT
npm run --silent test -w tests >"$e2e_log" 2>&1 &
e2e=$!
# A background job of a script ignores Ctrl-C: pass a stop on to it.
trap 'kill -TERM "$e2e" 2>/dev/null; exit 130' INT TERM

npx vitest run --project '!api-build'
vitest_status=$?

wait "$e2e"
e2e_status=$?
echo
echo "── Browser suite (tests/, run alongside the above) ──"
cat "$e2e_log"

[ "$vitest_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
