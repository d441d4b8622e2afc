#!/usr/bin/env bash
# Installs node-postgres and pg-copy-streams into node_modules here at the
# versions package-lock.json pins (npm ci), unless they are there already.
set -euo pipefail
cd "$(dirname "$0")"
if [ -d node_modules/pg ] && [ -d node_modules/pg-copy-streams ]; then exit 0; fi
npm ci --no-audit --no-fund --loglevel=error
