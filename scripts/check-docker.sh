#!/usr/bin/env bash
# `npm run lint:docker`: the checks of docker/ that need no Docker engine.
#  1. docker/Dockerfile parsed and validated by dockerfile-utils (the linter behind VS Code's
#     Dockerfile support): instructions, flags, arguments, ports, HEALTHCHECK form, …
#  2. the project's own rules for the image: non-root USER, HEALTHCHECK on /health,
#     HOST=0.0.0.0, a DATA_DIR volume, a multi-stage build.
#  3. docker/compose.yaml interpolated and validated against the Compose Specification JSON
#     schema, plus the project's rules (scripts/check-docker.ts).
#  4. hadolint and caddy, when installed, on the Dockerfile and the Caddyfile (optional).
# The npm packages come from the root devDependencies (`npm install`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
dockerfile=docker/Dockerfile

"$bin/dockerfile-utils" lint "$dockerfile"

fail=0
need() { grep -Eq "$1" "$dockerfile" || { echo "  - $dockerfile: $2" >&2; fail=1; }; }
need '^FROM .* AS build' 'needs a build stage (multi-stage)'
need '^USER (node|[a-z][a-z0-9_-]*|[1-9][0-9]*)$' 'needs a non-root USER'
need '^HEALTHCHECK ' 'needs a HEALTHCHECK'
need "fetch\\('http://127\\.0\\.0\\.1:.*/health'" 'the HEALTHCHECK must ask GET /health'
need 'HOST=0\.0\.0\.0' 'must set HOST=0.0.0.0'
need 'DATA_DIR=/data' 'must set DATA_DIR=/data'
need '^VOLUME .*/data' 'must declare the /data volume'
if [ "$(grep -E '^USER ' "$dockerfile" | tail -1)" = "USER root" ]; then
  echo "  - $dockerfile: the last USER is root" >&2
  fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "Dockerfile: valid (dockerfile-utils) and meets the project's image rules"

node --import tsx scripts/check-docker.ts

if command -v hadolint >/dev/null; then hadolint "$dockerfile"; fi
if command -v caddy >/dev/null; then
  PUBLIC_PORT=8080 S3_BUCKET=admissions caddy adapt --config docker/Caddyfile >/dev/null
  echo "Caddyfile: adapts (caddy)"
fi
