#!/usr/bin/env bash
# The suites of `npm test` once the builds are made: vitest's projects, then the browser suite.
#
# One after the other. Both keep the two cores busy (PGlite, LibreOffice, PDF rendering, jsdom on
# one side; Chromium and a server on the other). Run side by side they took 42 and 33 minutes
# where they take 24 and about 12 alone, and timing-bound tests failed in the crush.
# TEST_SUITES_SIDE_BY_SIDE=1 runs them together anyway (a machine with more cores).
#
# The test of the service build runs first, alone: it deletes and rewrites services/api/dist,
# which the browser suite's server and the CLI tests run.
set -uo pipefail
cd "$(dirname "$0")/.."

npx vitest run --project api-build || exit 1

if [ "${TEST_SUITES_SIDE_BY_SIDE:-}" != 1 ]; then
  vitest_status=0
  npx vitest run --project '!api-build' || vitest_status=$?
  # The browser suite runs even when vitest failed: one CI run reports both.
  echo
  echo "── Browser suite (tests/) ──"
  npm run --silent test -w tests
  e2e_status=$?
  [ "$vitest_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
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
