#!/usr/bin/env bash
# drizzle-kit loads drizzle-orm from its own location (the root node_modules), but npm keeps
# drizzle-orm inside this workspace; link it for the run. Arguments go to drizzle-kit,
# e.g. `npm run db:generate -w services/api -- --name my_change`.
set -euo pipefail
cd "$(dirname "$0")/.."
link=../../node_modules/drizzle-orm
if [ ! -e "$link" ]; then
  ln -s ../services/api/node_modules/drizzle-orm "$link"
  trap 'rm -f "$link"' EXIT
fi
npx drizzle-kit generate "$@"
