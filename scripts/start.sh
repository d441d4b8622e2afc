#!/usr/bin/env bash
# Installs what is missing, builds Release and runs tandemd on 127.0.0.1:6875
# with its data in ./data (in the foreground; Ctrl-C stops it cleanly).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
exec build/bin/tandemd --listen 127.0.0.1:6875 --data-dir ./data "$@"
