#!/usr/bin/env bash
# Installs what running needs, builds tandemd alone (Release) and runs it on
# 127.0.0.1:6875 with its data in ./data (in the foreground; Ctrl-C stops it
# cleanly). Tests and tools are built by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --run
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target tandemd
exec build/bin/tandemd --listen 127.0.0.1:6875 --data-dir ./data "$@"
